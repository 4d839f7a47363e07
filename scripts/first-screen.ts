import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { RouteName } from '@hunch/contract';

// The JavaScript each first screen needs before it can render (decision 023), from the Vite
// manifest of a build (web/dist/.vite/manifest.json): the entry and its static imports, plus for
// each route level the URL matches the lazy module router.tsx loads and its static imports. Dynamic
// imports inside a screen (AFTER_FIRST_RENDER: the breakdown's charts...) come after, and the
// checks of its first API answers (zod and the answers' schemas) are loaded beside it: neither is
// counted; the table prints them with their sizes. Sizes are those of the .gz and .br files the
// server sends (gzip level 9, brotli 11).
//
//   npx tsx scripts/first-screen.ts [web/dist]

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * An API answer a landing page asks for as it starts (decision 031): the contract's route, whose
 * `:name` parameters are the page's own of the same name. `signedIn`: only a signed-in visitor's
 * page asks for it. The server names these in the page's answer (a preload) so they are on their
 * way before the scripts have run; the build checks each against the contract.
 */
export interface FirstAnswer {
  route: RouteName;
  signedIn?: true;
}

/**
 * The module the browser build writes for a route's answer check (scripts/browser-contract.ts): in
 * contract/src, the schemas of that route's success answer and nothing else.
 */
export const answerCheckFile = (route: string): string => `_check-${route}.ts`;
/** Where the build says which chunk holds each route's check when it bundles them (route: chunk name). */
export const CHECK_CHUNKS_FILE = '.vite/checks.json';
/**
 * A check's own manifest key, or, when the build bundles the checks together (vite.config.ts),
 * the key of their chunk: `_checks-<hash>.js` (`_host-checks-` for the hosts' routes).
 */
const isCheckKey = (key: string) =>
  /^\.\.\/contract\/src\/_check-[\w$]+\.ts$/.test(key) || /^_(host-|game-)?checks-[\w-]+\.js$/.test(key);

/** Asked for by every page as it starts: who is signed in (the navigation bar reads it). */
export const EVERY_PAGE_ANSWERS: FirstAnswer[] = [{ route: 'profile' }];

/**
 * A URL a person can land on, the lazy modules (manifest keys) its route levels load, and the API
 * answers its first screen waits for (beside EVERY_PAGE_ANSWERS) when its address has no query.
 */
export interface LandingPage {
  path: string;
  modules: string[];
  answers?: FirstAnswer[];
}

const games = 'src/features/games';
const results = 'src/features/results';
const hosting = 'src/features/hosting';
const resultsShell = `${results}/results-shell.tsx`;
const game = '/play/:community/:series/:uuid';

/** Every first screen of router.tsx and host-routes.tsx. A lazy module missing here is reported. */
export const LANDING_PAGES: LandingPage[] = [
  {
    path: '/communities/search',
    modules: [
      'src/features/communities/communities-shell.tsx',
      'src/features/communities/community-search-page.tsx',
    ],
    answers: [{ route: 'communitySearch' }],
  },
  {
    path: '/communities/joined',
    modules: [
      'src/features/communities/communities-shell.tsx',
      'src/features/communities/joined-communities-page.tsx',
    ],
  },
  {
    path: '/communities/:endpoint',
    modules: [
      'src/features/communities/communities-shell.tsx',
      'src/features/communities/community-page.tsx',
    ],
  },
  { path: '/login', modules: ['src/features/accounts/login-page.tsx'] },
  { path: '/register', modules: ['src/features/accounts/register-page.tsx'] },
  { path: '/profile', modules: ['src/features/accounts/profile-page.tsx'] },
  { path: '/scoring', modules: [`${games}/scoring-page.tsx`] },
  { path: '/play/current', modules: [`${games}/play-list-page.tsx`] },
  { path: '/play/:community/:series', modules: [`${games}/series-page.tsx`] },
  {
    path: game,
    modules: ['src/app/game-screen.tsx'],
    answers: [{ route: 'game' }, { route: 'participation', signedIn: true }],
  },
  { path: `${game}/questions`, modules: [`${games}/questions-page.tsx`] },
  {
    path: `${game}/results/leaderboard`,
    modules: [resultsShell, `${results}/player-leaderboard.tsx`],
  },
  {
    path: `${game}/results/communityLeaderboard`,
    modules: [resultsShell, `${results}/community-leaderboard.tsx`],
  },
  {
    path: `${game}/results/breakdown`,
    modules: [resultsShell, `${results}/question-breakdown.tsx`],
  },
  { path: '/host', modules: [`${hosting}/host-shell.tsx`, `${hosting}/host-home-page.tsx`] },
  {
    path: '/host/:community',
    modules: [`${hosting}/host-shell.tsx`, `${hosting}/community-console-page.tsx`],
  },
  {
    path: '/host/:community/:series',
    modules: [`${hosting}/host-shell.tsx`, `${hosting}/series-console-page.tsx`],
  },
  {
    path: '/host/:community/:series/:uuid',
    modules: [`${hosting}/host-shell.tsx`, `${hosting}/game-editor-page.tsx`],
  },
];

/**
 * Modules a screen asks for with import() once it runs (decisions 025, 031): its first render does
 * not wait for them. Reported with their sizes, not added to any first screen. A module is its
 * manifest key, or the name of a chunk the build names (vite.config.ts).
 */
export const AFTER_FIRST_RENDER: { module: string; why: string }[] = [
  { module: 'socket-io', why: 'socket.io, once a game screen has rendered' },
  { module: 'src/features/live/live-panel.tsx', why: 'the live game, on the page of one under way' },
  { module: `${results}/breakdown-charts.tsx`, why: 'the breakdown’s charts (recharts)' },
  {
    module: 'src/features/accounts/registration-checks.ts',
    why: 'the sign-up form’s format checks (zod), and a refused check’s text',
  },
  { module: `${hosting}/season-checks.ts`, why: 'the console’s season document checks (zod)' },
  { module: 'src/features/live/tab-answer.ts', why: 'the check of an answer another tab stored (zod)' },
  {
    module: 'src/app/focus-on-navigation.ts',
    why: 'the focus on a new page’s heading, at the first change of page',
  },
  { module: 'src/app/follow-session.ts', why: 'following a login or logout in another tab' },
];

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
  brotli: number;
}

export interface ScreenSize {
  path: string;
  /** The JavaScript files it loads, the entry's first. */
  files: FileSize[];
  gzip: number;
  brotli: number;
  /** The checks of its own first answers (beyond every page's), loaded beside its first screen. */
  checks: FileSize[];
  /** Every file loaded beside its first screen (every page's checks and its own), gzip. */
  besideGzip: number;
}

export interface FirstScreens {
  screens: ScreenSize[];
  /** The entry's own files (React, the router, the app frame): in every first screen. */
  entry: FileSize[];
  /**
   * Loaded beside every first screen, not awaited by its render: the checks of EVERY_PAGE_ANSWERS
   * (zod and the profile's schema), which the first answers need and the first render does not.
   */
  beside: FileSize[];
  /** The chunks of AFTER_FIRST_RENDER (each with its static imports the entry lacks). */
  later: (FileSize & { why: string })[];
  /** Chunks loaded on demand that no landing page lists (a new lazy route would show here). */
  unlisted: string[];
  /** The manifest's entry file, for fetching it from a running server. */
  entryFile: string;
}

function compressedSize(dist: string, file: string): FileSize {
  const full = path.join(dist, file);
  const data = readFileSync(full);
  const gz = existsSync(`${full}.gz`)
    ? readFileSync(`${full}.gz`).length
    : gzipSync(data, { level: 9 }).length;
  const br = existsSync(`${full}.br`)
    ? readFileSync(`${full}.br`).length
    : brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { file, bytes: data.length, gzip: gz, brotli: br };
}

/** The files of each landing page of a build, by name: what the figures and the preload hints use. */
export interface LandingFiles {
  /** The entry and its static imports: index.html loads them on every page. */
  entry: string[];
  /**
   * Each landing page's files, the entry's first, and the checks of its own first answers (the
   * files beyond the entry, its files and `beside`).
   */
  screens: { path: string; files: string[]; checks: string[] }[];
  /** The checks of EVERY_PAGE_ANSWERS (beyond the entry): loaded beside every first screen. */
  beside: string[];
  /** The files of AFTER_FIRST_RENDER modules the entry lacks. */
  later: { file: string; why: string }[];
  unlisted: string[];
  entryFile: string;
}

/** Which files every landing page of the build in `dist` loads (it must have its manifest). */
export function landingFiles(dist: string): LandingFiles {
  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build the web app first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('the manifest has no entry');
  const chunk = (key: string): ManifestChunk => {
    const c = manifest[key];
    if (!c) throw new Error(`${key} is not in the build: router.tsx and LANDING_PAGES disagree`);
    return c;
  };
  /** The files a chunk needs before it runs: itself and its static imports, recursively. */
  const closure = (key: string, into: string[]): string[] => {
    const c = chunk(key);
    if (!into.includes(c.file)) {
      into.push(c.file);
      for (const dep of c.imports ?? []) closure(dep, into);
    }
    return into;
  };
  const dynamic = new Set(Object.values(manifest).flatMap((c) => c.dynamicImports ?? []));
  /**
   * A lazy module's chunk. One that other chunks also import statically (results-shell: the pages
   * under it read its game) shares a chunk named after it, keyed `_name-hash.js`.
   */
  const lazyKey = (module: string): string | undefined => {
    const name = path.basename(module).replace(/\.[jt]sx?$/, '');
    const key = manifest[module]
      ? module
      : Object.keys(manifest).find((k) => k.startsWith('_') && manifest[k]?.name === name);
    return key && dynamic.has(key) ? key : undefined;
  };
  const lazyChunk = (module: string): string => {
    const key = lazyKey(module);
    if (!key) throw new Error(`${module} is not loaded lazily: router.tsx and LANDING_PAGES disagree`);
    return key;
  };
  const entry = closure(entryKey, []);
  const chunksFile = path.join(dist, CHECK_CHUNKS_FILE);
  const chunkOf = existsSync(chunksFile)
    ? (JSON.parse(readFileSync(chunksFile, 'utf8')) as Record<string, string>)
    : {};
  const checkKey = (route: string) => {
    const own = `../contract/src/${answerCheckFile(route)}`;
    const name = chunkOf[route];
    const grouped =
      name && Object.keys(manifest).find((k) => k.startsWith('_') && manifest[k]?.name === name);
    return manifest[own] || !grouped ? own : grouped;
  };
  /** The files of the answers' checks a page does not have already. */
  const checksOf = (answers: FirstAnswer[], has: string[]) => {
    const files: string[] = [];
    for (const a of answers) closure(checkKey(a.route), files);
    return files.filter((f) => !has.includes(f));
  };
  const beside = checksOf(EVERY_PAGE_ANSWERS, entry);
  const screens = LANDING_PAGES.map(({ path: page, modules, answers = [] }) => {
    const files = entry.slice();
    for (const m of modules) closure(lazyChunk(m), files);
    return { path: page, files, checks: checksOf(answers, [...files, ...beside]) };
  });
  const listed = new Set(LANDING_PAGES.flatMap((p) => p.modules.map(lazyChunk)));
  const inScreens = new Set(screens.flatMap((s) => s.files));
  const later: LandingFiles['later'] = [];
  for (const { module, why } of AFTER_FIRST_RENDER) {
    // One the bundler merged into a screen's chunk is loaded with that screen: nothing to report.
    const key = lazyKey(module);
    if (!key || listed.has(key)) continue;
    listed.add(key);
    for (const file of closure(key, [])) {
      // A file some first screen has already (the game screen's, beside the live panel) is not later.
      if (!inScreens.has(file) && !later.some((l) => l.file === file)) later.push({ file, why });
    }
  }
  // The answers' checks are loaded by whichever call reads an answer; any other lazy chunk is a
  // screen or a later module the lists above should name.
  const unlisted = [...dynamic].filter((k) => !listed.has(k) && !isCheckKey(k));
  return { entry, screens, beside, later, unlisted, entryFile: chunk(entryKey).file };
}

/** The figures of every landing page of the build in `dist` (it must have been built with its manifest). */
export function measureFirstScreens(dist: string): FirstScreens {
  const files = landingFiles(dist);
  const sizes = new Map<string, FileSize>();
  const size = (file: string) => {
    const known = sizes.get(file);
    if (known) return known;
    const s = compressedSize(dist, file);
    sizes.set(file, s);
    return s;
  };
  const gzip = (list: FileSize[]) => list.reduce((n, f) => n + f.gzip, 0);
  const beside = files.beside.map(size);
  const screens = files.screens.map(({ path: page, files: screenFiles, checks }) => {
    const fileSizes = screenFiles.map(size);
    const checkSizes = checks.map(size);
    return {
      path: page,
      files: fileSizes,
      gzip: gzip(fileSizes),
      brotli: fileSizes.reduce((n, f) => n + f.brotli, 0),
      checks: checkSizes,
      besideGzip: gzip(beside) + gzip(checkSizes),
    };
  });
  return {
    screens,
    entry: files.entry.map(size),
    beside,
    later: files.later.map(({ file, why }) => ({ ...size(file), why })),
    unlisted: files.unlisted,
    entryFile: files.entryFile,
  };
}

export const kb = (bytes: number): number => Math.round(bytes / 102.4) / 10;

/** The table the CLI and the benchmark print. */
export function firstScreenTable(figures: FirstScreens): string[] {
  const lines = figures.entry.map(
    (f) =>
      `  entry   ${f.file.padEnd(44)} ${String(kb(f.gzip)).padStart(6)} KB gzip ${String(kb(f.brotli)).padStart(6)} KB br`,
  );
  for (const f of figures.beside) {
    lines.push(
      `  beside  ${f.file.padEnd(44)} ${String(kb(f.gzip)).padStart(6)} KB gzip ${String(kb(f.brotli)).padStart(6)} KB br (every page's first answers' checks, not awaited by the render)`,
    );
  }
  for (const f of figures.later) {
    lines.push(
      `  later   ${f.file.padEnd(44)} ${String(kb(f.gzip)).padStart(6)} KB gzip ${String(kb(f.brotli)).padStart(6)} KB br (after the first render: ${f.why})`,
    );
  }
  for (const s of figures.screens) {
    lines.push(
      `  ${s.path.padEnd(52)} ${String(kb(s.gzip)).padStart(6)} KB gzip ${String(kb(s.brotli)).padStart(6)} KB br (${s.files.length} files; beside: ${kb(s.besideGzip)} KB gzip of answer checks)`,
    );
  }
  for (const u of figures.unlisted) lines.push(`  not measured: ${u} (a lazy module no landing page lists)`);
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dist = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../web/dist', import.meta.url)));
  const figures = measureFirstScreens(dist);
  console.log(`First-screen JavaScript of ${dist}:`);
  for (const line of firstScreenTable(figures)) console.log(line);
}
