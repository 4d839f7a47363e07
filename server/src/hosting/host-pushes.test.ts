import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  DataClientToServer,
  DataServerToClient,
  Game,
  GameStateEvent,
  SeasonInput,
} from '@hunch/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { attachRealtime } from '../app/realtime';
import { AppHooks } from '../platform/app-hooks';
import { loadConfig } from '../platform/config';
import type { Db } from '../platform/db/database';
import { ensureDefaultImages } from '../platform/images';
import { adminName, postSeason, seasonDoc, signUp } from '../test/hosting-factories';
import { TestClient } from '../test/test-app';
import { dbKinds, openTestDb } from '../test/test-db';
import { highLimitsEnv } from '../test/test-limits';
import { until } from '../test/until';

type DataSocket = Socket<DataServerToClient, DataClientToServer>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The real app with socket.io, listening, on a database it may share with a second process. */
async function listeningApp(db: Db, uploadsDir: string, env: NodeJS.ProcessEnv) {
  const config = {
    ...loadConfig({ ...highLimitsEnv, ...env }),
    logLevel: 'silent',
    webDist: undefined,
    dataDir: uploadsDir,
  };
  const ctx = { db, config, uploadsDir, now: () => new Date(), hooks: new AppHooks() };
  const app = await buildApp(ctx);
  const realtime = await attachRealtime(app, ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await realtime.close();
      await app.close();
    },
  };
}

/** A watcher on /data of `url`, recording every game_state push. */
async function watcher(url: string) {
  const socket: DataSocket = io(`${url}/data`, { transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const received: GameStateEvent[] = [];
  socket.on('game_state', (e) => received.push(e));
  return {
    socket,
    received,
    watch: (uuid: string) => new Promise<Game | null>((resolve) => socket.emit('game', uuid, resolve)),
    of: (uuid: string) => received.filter((e) => e.game === uuid).map((e) => e.state),
  };
}

/**
 * Hosting's changes reach players as game_state pushes (hosting spec §3) through the app's hooks:
 * the host calls one app, the watcher's socket is on `watched` (another process, joined by Redis,
 * in the scale-out case).
 */
function pushScenario(setup: () => Promise<{ watched: string; admin: TestClient; db: Db }>) {
  let admin: TestClient;
  let db: Db;
  let w: Awaited<ReturnType<typeof watcher>>;
  let doc: SeasonInput;
  const uuids: Record<string, string> = {};

  beforeAll(async () => {
    let watched: string;
    ({ admin, db, watched } = await setup());
    // week-1 completed half an hour ago (within the clock's catch-up), its outcome pending;
    // week-2 opens in 20.5 hours.
    doc = seasonDoc(new Date(Date.now() - DAY - 3.5 * HOUR));
    const res = await postSeason(admin, doc);
    expect(res.statusCode, res.body).toBe(200);
    for (const g of res.json().games) uuids[g.key] = g.uuid;
    // The clock's own push of 'results' is behind us before anyone watches.
    await until(async () => {
      const { rows } = await db.query(
        `SELECT 1 FROM game_state_events WHERE game_id = $1 AND state = 'results'`,
        [uuids['week-1']],
      );
      return rows.length > 0;
    });
    w = await watcher(watched);
    expect(await w.watch(uuids['week-1']!)).toMatchObject({
      state: 'results',
      waiting_for: ['Finishers on Saturday?'],
    });
    expect(await w.watch(uuids['week-2']!)).toMatchObject({ state: 'closed' });
  });
  afterAll(() => {
    w?.socket.close();
  });

  it('pushes the state when the host enters the last outcome, then complete once scored', async () => {
    const res = await admin.put(`/api/host/outcome/${uuids['week-1']}/2`, { json: { outcome: 150 } });
    expect(res.statusCode, res.body).toBe(200);
    // Scored at once: the host's answer is the game as it is then (hosting spec §5: its state).
    expect(res.json()).toMatchObject({ state: 'complete', waiting_for: [] });
    // The host's push ('results', waiting for nothing now; 'complete' should the clock have scored
    // in between), then the clock's 'complete' once it scores: only the clock scores, once.
    await until(() => w.of(uuids['week-1']!).length === 2, 10_000);
    expect(w.of(uuids['week-1']!)[1]).toBe('complete');
    await new Promise((r) => setTimeout(r, 1200));
    expect(w.of(uuids['week-1']!)).toHaveLength(2);
  });

  it('pushes a correction or a void of a complete game', async () => {
    w.received.length = 0;
    expect(
      (await admin.put(`/api/host/outcome/${uuids['week-1']}/0`, { json: { void: true } })).statusCode,
    ).toBe(200);
    await until(() => w.of(uuids['week-1']!).length === 1, 10_000);
    expect(w.of(uuids['week-1']!)).toEqual(['complete']);
    // Sending the same value again changes nothing, and pushes nothing.
    expect(
      (await admin.put(`/api/host/outcome/${uuids['week-1']}/0`, { json: { void: true } })).statusCode,
    ).toBe(200);
    expect(
      (await admin.put(`/api/host/outcome/${uuids['week-1']}/2`, { json: { outcome: 120 } })).statusCode,
    ).toBe(200);
    await until(() => w.of(uuids['week-1']!).length === 2, 10_000);
    expect(w.of(uuids['week-1']!)).toEqual(['complete', 'complete']);
  });

  it('pushes a game whose schedule an import moves, and only that one', async () => {
    w.received.length = 0;
    const later = structuredClone(doc);
    const week2 = later.series![0]!.games![1]!;
    const move = (iso: string) => new Date(Date.parse(iso) + HOUR).toISOString();
    week2.schedule = {
      open: move(week2.schedule.open),
      standby: move(week2.schedule.standby),
      complete: move(week2.schedule.complete),
    };
    const res = await postSeason(admin, later);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().updated.games).toBe(1);
    await until(() => w.received.length > 0, 10_000);
    expect(w.received).toEqual([{ game: uuids['week-2'], state: 'closed' }]);
    // A dry run moves nothing and pushes nothing.
    week2.schedule.complete = move(week2.schedule.complete);
    expect((await postSeason(admin, later, { dryRun: true })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.received).toHaveLength(1);
  });

  it('pushes a deleted game, which is then unknown', async () => {
    w.received.length = 0;
    expect((await admin.delete(`/api/host/game/${uuids['week-2']}`)).statusCode).toBe(200);
    await until(() => w.received.length > 0, 10_000);
    expect(w.received).toEqual([{ game: uuids['week-2'], state: 'closed' }]);
    expect(await w.watch(uuids['week-2']!)).toBeNull();
  });
}

describe.each(dbKinds)('game_state pushes of hosting changes (%s)', (kind) => {
  let db: Db;
  let uploadsDir: string;
  let server: Awaited<ReturnType<typeof listeningApp>>;
  const name = adminName();
  afterAll(async () => {
    await server?.close();
    await db?.close();
    if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
  });

  pushScenario(async () => {
    db = await openTestDb(kind);
    uploadsDir = await mkdtemp(path.join(tmpdir(), 'hunch-pushes-'));
    await ensureDefaultImages(uploadsDir);
    server = await listeningApp(db, uploadsDir, { ADMIN_USERS: name });
    const admin = new TestClient(server.app);
    await signUp(admin, name);
    return { watched: server.url, admin, db };
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.runIf(process.env.TEST_DATABASE_URL && redisUrl)(
  'game_state pushes across processes (Redis)',
  () => {
    let db: Db;
    let uploadsDir: string;
    const servers: Awaited<ReturnType<typeof listeningApp>>[] = [];
    const name = adminName();
    afterAll(async () => {
      for (const s of servers) await s.close();
      await db?.close();
      if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
    });

    pushScenario(async () => {
      db = await openTestDb('postgres');
      uploadsDir = await mkdtemp(path.join(tmpdir(), 'hunch-pushes-'));
      await ensureDefaultImages(uploadsDir);
      for (let i = 0; i < 2; i++)
        servers.push(await listeningApp(db, uploadsDir, { ADMIN_USERS: name, REDIS_URL: redisUrl }));
      // The host acts on the first process; the player watches on the second.
      const admin = new TestClient(servers[0]!.app);
      await signUp(admin, name);
      return { watched: servers[1]!.url, admin, db };
    });
  },
);
