import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANDING_PAGES, measureFirstScreens } from './first-screen';

/** A manifest shaped as Vite writes it: every landing page's modules lazy, one kept in a shared chunk. */
function manifestFor(extra: Record<string, unknown> = {}) {
  const modules = [...new Set(LANDING_PAGES.flatMap((p) => p.modules))];
  const chunks: Record<string, unknown> = {
    'index.html': {
      file: 'static/index-1.js',
      isEntry: true,
      imports: ['_framework-1.js'],
      dynamicImports: [
        ...modules.map((m) => (m.endsWith('results-shell.tsx') ? '_results-shell-1.js' : m)),
        '../contract/src/http-routes.ts',
      ],
    },
    '_framework-1.js': { file: 'static/framework-1.js', name: 'framework' },
    '_results-shell-1.js': {
      file: 'static/results-shell-1.js',
      name: 'results-shell',
      imports: ['index.html'],
    },
    '../contract/src/http-routes.ts': {
      file: 'static/http-routes-1.js',
      isDynamicEntry: true,
      imports: ['index.html', '_zod-1.js'],
    },
    '_zod-1.js': { file: 'static/zod-1.js', name: 'zod' },
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

/** Files of known sizes: incompressible bytes, so gzip adds a little to each. */
async function distWith(manifest: Record<string, unknown>): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), 'hunch-first-screen-'));
  await mkdir(path.join(dist, '.vite'), { recursive: true });
  await mkdir(path.join(dist, 'static'));
  await writeFile(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
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
    // The full route table: started by the entry, not awaited by the first render.
    expect(beside.map((f) => f.file)).toEqual(['static/http-routes-1.js', 'static/zod-1.js']);
    expect(unlisted).toEqual([]);
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
