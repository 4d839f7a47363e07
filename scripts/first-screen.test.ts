import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_CHUNKS_FILE, EVERY_PAGE_ANSWERS, LANDING_PAGES, measureFirstScreens } from './first-screen';

/**
 * A manifest shaped as Vite writes it: every landing page's modules lazy, one kept in a shared
 * chunk; the answers' checks bundled in two chunks (web/vite.config.ts), the accounts' with zod.
 */
function manifestFor(extra: Record<string, unknown> = {}) {
  const modules = [...new Set(LANDING_PAGES.flatMap((p) => p.modules))];
  const chunks: Record<string, unknown> = {
    'index.html': {
      file: 'static/index-1.js',
      isEntry: true,
      imports: ['_framework-1.js'],
      dynamicImports: [
        ...modules.map((m) => (m.endsWith('results-shell.tsx') ? '_results-shell-1.js' : m)),
        '_checks-1.js',
        '_game-checks-1.js',
      ],
    },
    '_framework-1.js': { file: 'static/framework-1.js', name: 'framework' },
    '_results-shell-1.js': {
      file: 'static/results-shell-1.js',
      name: 'results-shell',
      imports: ['index.html'],
    },
    '_checks-1.js': { file: 'static/checks-1.js', name: 'checks', imports: ['index.html'] },
    '_game-checks-1.js': { file: 'static/game-checks-1.js', name: 'game-checks', imports: ['_checks-1.js'] },
    ...extra,
  };
  for (const m of modules) {
    if (m.endsWith('results-shell.tsx')) continue;
    chunks[m] = {
      file: `static/${path.basename(m)}.js`,
      isDynamicEntry: true,
      imports: ['index.html', '_framework-1.js'],
    };
  }
  return chunks;
}

/** The checks' chunks by route, as the build writes them: the accounts' in one, the others in another. */
const CHECK_CHUNKS = {
  profile: 'checks',
  game: 'game-checks',
  participation: 'game-checks',
  communitySearch: 'game-checks',
};

/** Files of known sizes: incompressible bytes, so gzip adds a little to each. */
async function distWith(
  manifest: Record<string, unknown>,
  checks: object | null = CHECK_CHUNKS,
): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), 'hunch-first-screen-'));
  await mkdir(path.join(dist, '.vite'), { recursive: true });
  await mkdir(path.join(dist, 'static'));
  await writeFile(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
  if (checks) await writeFile(path.join(dist, CHECK_CHUNKS_FILE), JSON.stringify(checks));
  for (const c of Object.values(manifest) as { file: string }[]) {
    const size = c.file.includes('framework') ? 50_000 : 1_000;
    // Random bytes: they compress to about their own size.
    await writeFile(path.join(dist, c.file), randomBytes(size));
  }
  return dist;
}

describe('first-screen figures from a build manifest', () => {
  let dist: string;
  beforeAll(async () => {
    dist = await distWith(manifestFor());
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  it('sums the entry, its static imports and each route level’s lazy chunk, each file once', () => {
    const { screens, entry, beside, unlisted } = measureFirstScreens(dist);
    expect(entry.map((f) => f.file)).toEqual(['static/index-1.js', 'static/framework-1.js']);
    const search = screens.find((s) => s.path === '/communities/search');
    expect(search?.files.map((f) => f.file)).toEqual([
      'static/index-1.js',
      'static/framework-1.js',
      'static/communities-shell.tsx.js',
      'static/community-search-page.tsx.js',
    ]);
    const board = screens.find((s) => s.path.endsWith('/results/leaderboard'));
    expect(board?.files.map((f) => f.file)).toContain('static/results-shell-1.js');
    for (const s of screens) {
      expect(s.gzip).toBe(s.files.reduce((n, f) => n + f.gzip, 0));
      expect(s.gzip).toBeGreaterThan(51_000);
    }
    // Every page's first answer (the profile) is checked with the accounts' chunk, loaded beside.
    expect(EVERY_PAGE_ANSWERS.map((a) => a.route)).toEqual(['profile']);
    expect(beside.map((f) => f.file)).toEqual(['static/checks-1.js']);
    // A page whose first answers are other routes' loads their chunk too, and counts it beside.
    const game = screens.find((s) => s.path === '/play/:community/:series/:uuid');
    expect(game?.checks.map((f) => f.file)).toEqual(['static/game-checks-1.js']);
    expect(game?.besideGzip).toBe((beside[0]?.gzip ?? 0) + (game?.checks[0]?.gzip ?? 0));
    expect(screens.find((s) => s.path === '/login')?.checks).toEqual([]);
    expect(unlisted).toEqual([]);
  });

  it('finds each route’s own check when the build does not bundle them', async () => {
    const own = (route: string) => `../contract/src/_check-${route}.ts`;
    const perRoute = manifestFor({
      [own('profile')]: { file: 'static/check-profile-1.js', isDynamicEntry: true, imports: ['_zod-1.js'] },
      [own('game')]: { file: 'static/check-game-1.js', isDynamicEntry: true, imports: ['_zod-1.js'] },
      [own('participation')]: {
        file: 'static/check-part-1.js',
        isDynamicEntry: true,
        imports: ['_zod-1.js'],
      },
      [own('communitySearch')]: {
        file: 'static/check-search-1.js',
        isDynamicEntry: true,
        imports: ['_zod-1.js'],
      },
      '_zod-1.js': { file: 'static/zod-1.js', name: 'zod' },
    });
    const entry = perRoute['index.html'] as { dynamicImports: string[] };
    entry.dynamicImports = [
      ...entry.dynamicImports.filter((k) => !k.includes('checks')),
      ...['profile', 'game', 'participation', 'communitySearch'].map(own),
    ];
    delete perRoute['_checks-1.js'];
    delete perRoute['_game-checks-1.js'];
    const separate = await distWith(perRoute, null);
    try {
      const { beside, screens, unlisted } = measureFirstScreens(separate);
      expect(beside.map((f) => f.file)).toEqual(['static/check-profile-1.js', 'static/zod-1.js']);
      const game = screens.find((s) => s.path === '/play/:community/:series/:uuid');
      expect(game?.checks.map((f) => f.file)).toEqual(['static/check-game-1.js', 'static/check-part-1.js']);
      expect(unlisted).toEqual([]);
    } finally {
      await rm(separate, { recursive: true, force: true });
    }
  });

  it('reports a chunk a screen loads after its first render, and counts it in no first screen', async () => {
    const charts = 'src/features/results/breakdown-charts.tsx';
    const more = manifestFor({
      [charts]: {
        file: 'static/charts-1.js',
        isDynamicEntry: true,
        imports: ['_recharts-1.js', 'index.html'],
      },
      '_recharts-1.js': { file: 'static/recharts-1.js', name: 'recharts' },
    });
    const breakdown = more['src/features/results/question-breakdown.tsx'] as { dynamicImports?: string[] };
    breakdown.dynamicImports = [charts];
    const withCharts = await distWith(more);
    try {
      const { screens, later, unlisted } = measureFirstScreens(withCharts);
      expect(later.map((f) => f.file)).toEqual(['static/charts-1.js', 'static/recharts-1.js']);
      expect(later[0]?.why).toMatch(/charts/);
      expect(unlisted).toEqual([]);
      for (const s of screens) expect(s.files.map((f) => f.file)).not.toContain('static/recharts-1.js');
    } finally {
      await rm(withCharts, { recursive: true, force: true });
    }
  });

  it('reads the size of the .gz the server sends when the build wrote one', async () => {
    const file = path.join(dist, 'static', 'framework-1.js');
    await writeFile(`${file}.gz`, gzipSync(Buffer.alloc(10)));
    const { entry } = measureFirstScreens(dist);
    expect(entry.find((f) => f.file === 'static/framework-1.js')?.gzip).toBe(
      gzipSync(Buffer.alloc(10)).length,
    );
  });

  it('names a lazy chunk no landing page lists, and refuses a listed module the build lacks', async () => {
    const more = manifestFor({
      'src/features/new-page.tsx': { file: 'static/new.js', isDynamicEntry: true },
    });
    (more['index.html'] as { dynamicImports: string[] }).dynamicImports.push('src/features/new-page.tsx');
    const withNew = await distWith(more);
    const missing = manifestFor();
    delete missing['src/features/accounts/login-page.tsx'];
    const withoutLogin = await distWith(missing);
    try {
      expect(measureFirstScreens(withNew).unlisted).toEqual(['src/features/new-page.tsx']);
      expect(() => measureFirstScreens(withoutLogin)).toThrow(/login-page/);
    } finally {
      await rm(withNew, { recursive: true, force: true });
      await rm(withoutLogin, { recursive: true, force: true });
    }
  });
});
