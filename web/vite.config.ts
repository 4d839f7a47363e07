import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin, runnerImport } from 'vite';
import {
  checkGroups,
  contractDeclarationsArePure,
  contractForTheBrowser,
  isEntryContract,
} from '../scripts/browser-contract.ts';
import {
  AFTER_FIRST_RENDER,
  EVERY_PAGE_ANSWERS,
  type FirstAnswer,
  LANDING_PAGES,
  landingFiles,
} from '../scripts/first-screen.ts';
import { INPUTS_STAMP, webInputsHash } from '../scripts/web-build-inputs.mjs';

// The API, uploaded images and sockets are served by the Node server; in dev Vite forwards them so the
// app stays same-origin (cookies and CSRF work exactly as in production).
const server = 'http://127.0.0.1:3000';

const here = fileURLToPath(new URL('.', import.meta.url));
const contractDir = path.resolve(here, '../contract/src');

/**
 * The libraries every screen runs on: one chunk that changes only when they do (decision 023).
 * Preact stands in for react and react-dom in the browser (decision 025).
 */
const FRAMEWORK =
  /[\\/]node_modules[\\/](preact|react-router|@tanstack|cookie|set-cookie-parser)[\\/]|^\0rolldown[\\/]runtime/;

/**
 * socket.io's client: loaded on demand by the game screens once they have rendered, and by the live
 * game (decision 031). One chunk, named so scripts/first-screen.ts can tell it from the route table.
 */
const SOCKET_IO =
  /[\\/]node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io)[\\/]/;

/**
 * The entry's own modules (main.tsx and what it imports statically: the frame, the API client, the
 * contract as the entry sees it) with the bundler's and Vite's helpers: one chunk beside the
 * framework, not a handful of small ones shared with the screens. Over HTTP/1.1 a page's requests
 * queue six at a time, each small file one more round trip before the first screen (decision 031).
 */
const APP_COMMON = (id: string) =>
  /[\\/]web[\\/]src[\\/]/.test(id) ||
  isEntryContract(id) ||
  /^\0(rolldown[\\/]runtime|vite[\\/]preload-helper)/.test(id);

/**
 * What several screens share (paths, shared components, the game rules...): not a screen itself
 * (LANDING_PAGES' modules keep their chunks), nor a module loaded after a first render
 * (AFTER_FIRST_RENDER: those keep theirs, their zod with them).
 */
const ownChunks = new Set(
  [...LANDING_PAGES.flatMap((p) => p.modules), ...AFTER_FIRST_RENDER.map((l) => l.module)].map((m) =>
    path.join(here, m),
  ),
);
const SHARED = (id: string) =>
  (/[\\/](web|rules)[\\/]src[\\/]/.test(id) && !ownChunks.has(id)) || DATE_FNS.test(id);

/** The game queries and the lists' refresh (web/src/api): shared by the screens that show games. */
const GAME_DATA = /[\\/]web[\\/]src[\\/]api[\\/](game-queries|schedule-refresh)\.ts$/;

/** date-fns (the rules' age check and the date texts use it): shared like the app's own modules. */
const DATE_FNS = /[\\/]node_modules[\\/]date-fns[\\/]/;

/** react, react-dom and their scheduler: none of them may reach the browser next to Preact. */
const REACT_ITSELF = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

/**
 * Stops the build when a module of react or react-dom is bundled (an import the preset's aliases
 * missed, a library resolving its own copy): two runtimes would be shipped, and hooks would run
 * against the wrong one (decision 025).
 */
function preactOnly(): Plugin {
  return {
    name: 'hunch:preact-only',
    apply: 'build',
    generateBundle() {
      const react = [...this.getModuleIds()].filter((id) => REACT_ITSELF.test(id));
      if (react.length > 0) {
        throw new Error(`React itself is in the bundle beside Preact (decision 025):\n${react.join('\n')}`);
      }
    },
  };
}

/** The text types worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // .vite/ holds the build manifest: read by the build tools, never served.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip, level 9) beside each text file of the
 * build, for the server to send as they are (@fastify/static's preCompressed): compressed once at
 * build time instead of at every request. A copy that saves under a tenth is not kept.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hunch:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // A build that failed before writing has nothing to compress.
      if (!existsSync(outDir)) return;
      for await (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = await readFile(file);
        const [br, gz] = await Promise.all([
          promisify(brotliCompress)(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
          promisify(gzip)(data, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        if (br.length < data.length * 0.9) await writeFile(`${file}.br`, br);
        if (gz.length < data.length * 0.9) await writeFile(`${file}.gz`, gz);
      }
    },
  };
}

/** An API answer as `.vite/preload.json` names it: the route's path, `:name` from the page's URL. */
interface AnswerHint {
  path: string;
  signedIn?: true;
}

/**
 * The API answers of EVERY_PAGE_ANSWERS and of each landing page, as paths of the contract's routes
 * (decision 031). Stops the build on an answer the server could not fill in: not a GET, or a path
 * parameter the page's URL does not have.
 */
async function answerHints(): Promise<{ all: AnswerHint[]; pages: Map<string, AnswerHint[]> }> {
  const { module } = await runnerImport<{ httpRoutes: Record<string, { method: string; path: string }> }>(
    path.join(contractDir, 'index.ts'),
  );
  const hint = (answer: FirstAnswer, page: string | null): AnswerHint => {
    const def = module.httpRoutes[answer.route];
    if (def?.method !== 'GET') throw new Error(`first answer ${answer.route} is not a GET route`);
    const own = new Set(page?.split('/').filter((p) => p.startsWith(':')));
    const missing = (def.path.match(/:\w+/g) ?? []).filter((p) => !own.has(p));
    if (missing.length > 0) {
      throw new Error(`first answer ${answer.route} of ${page ?? 'every page'} needs ${missing.join(', ')}`);
    }
    return answer.signedIn ? { path: def.path, signedIn: true } : { path: def.path };
  };
  return {
    all: EVERY_PAGE_ANSWERS.map((a) => hint(a, null)),
    pages: new Map(LANDING_PAGES.map((p) => [p.path, (p.answers ?? []).map((a) => hint(a, p.path))])),
  };
}

/**
 * Writes `.vite/preload.json` for the server (decisions 025, 031): the chunks each landing page
 * loads beyond the entry (scripts/first-screen.ts reads them from the manifest), the checks of the
 * API answers each page asks for as it starts (every page's in `all`), and those answers' paths.
 * The server names them in the answer it sends for a path, so the browser fetches them beside the
 * entry instead of after it has run. A build whose routes and LANDING_PAGES disagree still works,
 * without hints, and says so.
 */
function preloadHints(): Plugin {
  let outDir = '';
  return {
    name: 'hunch:preload-hints',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      if (!existsSync(path.join(outDir, '.vite', 'manifest.json'))) return;
      let files: ReturnType<typeof landingFiles>;
      try {
        files = landingFiles(outDir);
      } catch (err) {
        console.warn(`hunch: no preload hints written: ${(err as Error).message}`);
        return;
      }
      const answers = await answerHints();
      const hints = {
        all: files.beside,
        answers: answers.all,
        pages: files.screens.map((s) => ({
          path: s.path,
          files: [...s.files.filter((f) => !files.entry.includes(f)), ...s.checks],
          answers: answers.pages.get(s.path) ?? [],
        })),
      };
      await writeFile(path.join(outDir, '.vite', 'preload.json'), JSON.stringify(hints));
    },
  };
}

/**
 * Writes the hash of the sources this build was made from (scripts/web-build-inputs.mjs): `npm
 * start` builds again when they have changed since. Hashed as the build starts (a source edited
 * meanwhile is not taken for built), written only by a build that succeeded, after the other
 * plugins' last writes (compressed copies, preload hints): a build stopped halfway leaves no stamp.
 */
function inputsStamp(): Plugin {
  let outDir = '';
  let inputs = '';
  return {
    name: 'hunch:inputs-stamp',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildStart() {
      inputs = webInputsHash(path.resolve(here, '..'));
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        if (error || !existsSync(path.join(outDir, 'index.html'))) return;
        await writeFile(path.join(outDir, INPUTS_STAMP), inputs);
      },
    },
  };
}

export default defineConfig({
  // Pinned to this folder so the build works whether it is started from web/ or from the repo root.
  root: here,
  plugins: [
    // Preact with its React compatibility layer in place of react and react-dom, in the build and in
    // `vite` dev alike (decision 025): react-dom alone is 66 KB gzip, Preact and compat about 11 KB,
    // which is what brings every first screen under 100 KB. The code keeps importing 'react' and is
    // type-checked against React's types; the preset aliases react, react-dom and the JSX runtime.
    // No prerendering: the server sends one index.html for every path.
    preact({ prerender: { enabled: false } }),
    preactOnly(),
    contractForTheBrowser(),
    contractDeclarationsArePure(),
    precompress(),
    preloadHints(),
    inputsStamp(),
  ],
  build: {
    outDir: 'dist',
    // /assets/* belongs to the server's images (communities, users, games); bundles go elsewhere.
    assetsDir: 'static',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunks each screen loads, for the first-screen figures
    // (scripts/first-screen.ts, npm run bench -- web).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // The contract only declares: a file none of whose exports a chunk uses is left out of it,
        // and an unused declaration is dropped (contractDeclarationsArePure), so zod comes only where
        // a schema is used. Not `manualPureFunctions: ['z']`: it names every function called `z` in
        // every module pure, and minified libraries have them (Preact's style setter is one).
        moduleSideEffects: (id) => (id.startsWith(contractDir) ? false : undefined),
      },
      // React Router looks React 19's `use` and `useOptimistic` up by name and goes without them
      // when absent, as under Preact: the warning that they are undefined says what it expects.
      onLog(level, log, handler) {
        const reactRouter = /[\\/]node_modules[\\/]react-router[\\/]/.test(log.id ?? '');
        if (log.code === 'IMPORT_IS_UNDEFINED' && reactRouter) return;
        handler(level, log);
      },
      output: {
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK, priority: 10 },
            { name: 'socket-io', test: SOCKET_IO, priority: 10 },
            {
              name: 'app',
              test: APP_COMMON,
              tags: ['$initial'],
              priority: 9,
              includeDependenciesRecursively: false,
            },
            ...checkGroups,
            {
              // What several screens share (paths, shared components, the game rules...): one chunk
              // for the players' screens and one per feature for what its own screens share, not one
              // file per module. The games feature's own (the question flow, its API) stays out of
              // the chunk every page loads: /register, the largest first screen, went over 100 KB.
              name: (id: string) => {
                const feature = /[\\/]features[\\/](hosting|accounts|communities|results|games)[\\/]/.exec(
                  id,
                )?.[1];
                if (feature) return `${feature}-shared`;
                // What the game lists and pages ask and how they follow their games: not for
                // /register or /login, which stay under 100 KB without it.
                return GAME_DATA.test(id) ? 'game-data' : 'shared';
              },
              test: SHARED,
              minShareCount: 2,
              priority: 4,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/assets': server,
      '/socket.io': { target: server, ws: true },
    },
  },
});
