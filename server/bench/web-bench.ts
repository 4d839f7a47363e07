import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpRoutes, routeUrl } from '@hunch/contract';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { firstScreenTable, kb, measureFirstScreens } from '../../scripts/first-screen';
import { serverNodeFlags } from '../../scripts/server-node-flags.mjs';
import { DEMO_LOGIN } from '../src/seed/demo-seed';
import { ROOT, sleep, stopChild } from './bench-util';
import { freePort } from './live-processes';

// npm run bench -- web: what a browser downloads and how fast the first screens come (decision
// 023). Builds the web app, sums each landing page's first-screen JavaScript from the build
// manifest, starts the server as `npm start` runs it (PGlite, demo content, a temporary data
// folder), checks that bundles are sent compressed and cached for a year, and runs Lighthouse
// (mobile, simulated slow 4G and a 4x slower CPU, its defaults) on /communities/search and a game
// page in the system Chromium.

export interface WebBenchOptions {
  /** Print the figures as one JSON object on the last line. */
  json: boolean;
  /** Lighthouse runs per page; the median score of each page counts. */
  runs: number;
}

const WEB_DIST = path.join(ROOT, 'web', 'dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
const READY_TIMEOUT_MS = 180_000;

interface WebServer {
  url: string;
  child: ChildProcess;
  dataDir: string;
  tail: string[];
}

async function startServer(): Promise<WebServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hunch-web-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, [...serverNodeFlags(), '--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      // PGlite and in-process real time, whatever the shell says (an empty variable is unset).
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      WEB_DIST,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (d: Buffer) => {
    tail.push(...d.toString().split('\n'));
    tail.splice(0, Math.max(0, tail.length - 40));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const server = { url: `http://127.0.0.1:${port}`, child, dataDir, tail };
  const end = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < end && child.exitCode === null && child.signalCode === null) {
    try {
      if ((await fetch(`${server.url}${routeUrl(httpRoutes.communitySearch)}`)).ok) return server;
    } catch {
      /* not listening yet */
    }
    await sleep(250);
  }
  await stopServer(server);
  throw new Error(`the server did not start:\n${tail.join('\n')}`);
}

async function stopServer(server: WebServer): Promise<void> {
  await stopChild(server.child, 10_000);
  await rm(server.dataDir, { recursive: true, force: true });
}

/** The demo player's session cookie, so Lighthouse sees the game page a player sees. */
async function demoSession(base: string): Promise<string> {
  const csrf = await fetch(`${base}${routeUrl(httpRoutes.csrf)}`);
  const { token } = (await csrf.json()) as { token: string };
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  keep(csrf);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const body = new URLSearchParams(DEMO_LOGIN);
  const login = await fetch(`${base}${routeUrl(httpRoutes.login)}`, {
    method: httpRoutes.login.method,
    headers: { cookie: cookie(), 'x-csrf-token': token, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  if (!login.ok) throw new Error(`the demo login failed: ${login.status} ${await login.text()}`);
  keep(login);
  return cookie();
}

/** A game page of the demo content: the first game of the demo player's lists. */
async function gamePath(base: string, cookie: string): Promise<string> {
  const res = await fetch(`${base}${routeUrl(httpRoutes.playGames)}`, { headers: { cookie } });
  const games = (await res.json()) as {
    uuid: string;
    series: { endpoint: string };
    community: { endpoint: string };
  }[];
  const game = games[0];
  if (!game) throw new Error('the demo player has no game');
  return `/play/${game.community.endpoint}/${game.series.endpoint}/${game.uuid}`;
}

interface LighthouseRun {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** Lighthouse's measure of this machine's speed at the time (a quiet desktop: over 1000). */
  benchmarkIndex: number;
}

/** Attempts per run: on a busy machine Chromium now and then reports no first paint (NO_FCP). */
const LIGHTHOUSE_ATTEMPTS = 3;

async function runLighthouse(url: string, port: number, cookie?: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const lhr = result.lhr;
    const score = lhr.categories.performance?.score;
    if (typeof score !== 'number') {
      const why = lhr.runtimeError?.message ?? 'no performance score';
      if (attempt >= LIGHTHOUSE_ATTEMPTS) throw new Error(`Lighthouse failed on ${url}: ${why}`);
      console.log(`    (Lighthouse failed on ${url}, trying again: ${why})`);
      continue;
    }
    const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
    return {
      score: Math.round(score * 100),
      fcp: ms('first-contentful-paint'),
      lcp: ms('largest-contentful-paint'),
      tbt: ms('total-blocking-time'),
      cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN) * 1000) / 1000,
      si: ms('speed-index'),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    };
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? Number.NaN;

export async function benchWeb(opts: WebBenchOptions): Promise<boolean> {
  if (!existsSync(CHROMIUM)) {
    console.error(`web: no Chromium at ${CHROMIUM} (install the system chromium or set CHROMIUM_PATH)`);
    return false;
  }
  console.log('web: building the web app (npm run build -w web)...');
  execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const figures = measureFirstScreens(WEB_DIST);
  const largest = figures.screens.reduce((a, b) => (b.gzip > a.gzip ? b : a));
  console.log('First-screen JavaScript (entry and static imports, plus each route level’s lazy module):');
  for (const line of firstScreenTable(figures)) console.log(line);

  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const entry = `${server.url}/${figures.entryFile}`;
    const br = await fetch(entry, { headers: { 'accept-encoding': 'br, gzip' } });
    const gz = await fetch(entry, { headers: { 'accept-encoding': 'gzip' } });
    const encodings = [br.headers.get('content-encoding'), gz.headers.get('content-encoding')];
    const compressed = encodings[0] === 'br' && encodings[1] === 'gzip';
    const cacheControl = br.headers.get('cache-control') ?? '';
    const immutable = /\bimmutable\b/.test(cacheControl) && /\bmax-age=31536000\b/.test(cacheControl);
    const page = await fetch(`${server.url}/communities/search`, { headers: { 'accept-encoding': 'br' } });
    console.log(
      `  ${figures.entryFile}: Content-Encoding ${encodings.join(' / ')} (asked br / gzip), Cache-Control ${cacheControl}`,
    );
    console.log(
      `  /communities/search (index.html): Content-Encoding ${page.headers.get('content-encoding')}, Cache-Control ${page.headers.get('cache-control')}`,
    );

    const cookie = await demoSession(server.url);
    const pages: { path: string; cookie?: string }[] = [
      { path: '/communities/search' },
      { path: await gamePath(server.url, cookie), cookie },
    ];
    const scores: number[] = [];
    const machineIndexes: number[] = [];
    for (const p of pages) {
      const runs: LighthouseRun[] = [];
      for (let i = 0; i < opts.runs; i++)
        runs.push(await runLighthouse(`${server.url}${p.path}`, chrome.port, p.cookie));
      const score = median(runs.map((r) => r.score));
      scores.push(score);
      machineIndexes.push(...runs.map((r) => r.benchmarkIndex));
      console.log(`  Lighthouse (mobile) ${p.path}: ${score} (median of ${runs.length})`);
      for (const r of runs) {
        console.log(
          `    score ${r.score}: FCP ${r.fcp} ms, LCP ${r.lcp} ms, TBT ${r.tbt} ms, CLS ${r.cls}, Speed Index ${r.si} ms (machine index ${r.benchmarkIndex})`,
        );
      }
    }
    const result = {
      initial_js_gzip_kb: kb(largest.gzip),
      compressed,
      immutable_assets: immutable,
      lighthouse_performance: Math.min(...scores),
      // Lighthouse's own measure of the machine's speed over the runs: scores from hosts of
      // different speed are only comparable beside it (one host's 80 was another's 99).
      lighthouse_machine_index: median(machineIndexes),
      largest_first_screen: largest.path,
      first_screens_gzip_kb: Object.fromEntries(figures.screens.map((s) => [s.path, kb(s.gzip)])),
      // Not in a first screen, but asked for at start and awaited by its first API answers (their
      // checks: zod and the answers' schemas; the most any landing page loads), and what screens
      // load after their first render (the charts, socket.io, the live game).
      beside_gzip_kb: kb(Math.max(...figures.screens.map((s) => s.besideGzip))),
      later_gzip_kb: kb(figures.later.reduce((n, f) => n + f.gzip, 0)),
    };
    console.log(
      `web: largest first screen ${result.initial_js_gzip_kb} KB gzip (${largest.path}), compressed ${compressed}, ` +
        `immutable bundles ${immutable}, Lighthouse ${result.lighthouse_performance} (lowest median)`,
    );
    if (opts.json) console.log(JSON.stringify(result));
    return compressed && immutable;
  } finally {
    await chrome.kill();
    await stopServer(server);
  }
}
