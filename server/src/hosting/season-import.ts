import {
  type GameState,
  inDocumentOrder,
  SEASON_ENDPOINT_PATTERN,
  type SeasonImportResult,
  type SeasonParts,
} from '@hunch/contract';
import { gameStateAt } from '@hunch/rules';
import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import type { Actor } from './audit-log';
import { pendingOutcomeCounts } from './host-queries';
import { applyPlan, type PlacedGame } from './season-apply';
import { type Bundle, readBundle } from './season-bundle';
import { seasonOf, seasonVersion } from './season-export';
import { imageKey, imageRefs, resolveImages } from './season-images';
import { planCounts, planSeason, type SeasonPlan } from './season-plan';
import {
  type CommunityState,
  existingCategories,
  existingCommunities,
  loadCommunityState,
  lockCommunityEndpoint,
} from './season-queries';
import { readSeason, type SeasonReading } from './season-reader';
import { SeasonRefusal } from './season-refusal';
import type { SeasonFormat } from './season-text';

/** A season document's text: 2 MB holds thousands of games. */
export const SEASON_TEXT_MAX_BYTES = 2 * 1024 * 1024;

export type SeasonSource =
  | { kind: 'text'; text: string; format: SeasonFormat }
  | { kind: 'zip'; bytes: Buffer };

export interface ImportOptions {
  dryRun: boolean;
  actor: Actor;
  /**
   * Refuses (throws a 403) an actor who may not write this community: a host of another one, or
   * anyone but an admin when it does not exist yet.
   */
  authorize(endpoint: string, exists: boolean): Promise<void>;
  now: Date;
  uploadsDir: string;
  /**
   * The version of the document the edits started from (its export's ETag, or `*` for any
   * version): refused with a 412 when the community changed since, or does not exist.
   */
  ifMatch?: '*' | readonly string[];
  /** If-None-Match: *: only create the community; refused with a 412 when it exists already. */
  createOnly?: boolean;
  /**
   * The community the caller imports into (the console's page of it): a file for another one is
   * refused at community.endpoint, before it could rename that community and fill it.
   */
  into?: string;
  /** Told, once the import is committed, of each stored game whose schedule it moved. */
  scheduleChanged?(games: { uuid: string; state: GameState }[]): Promise<void>;
}

/**
 * The stored games a plan moves in time, with their state after the move: read once the plan is
 * applied, inside its transaction, for the outcomes they wait for then.
 */
async function movedGames(
  tx: Queryable,
  plan: SeasonPlan,
  now: Date,
): Promise<{ uuid: string; state: GameState }[]> {
  const moved = plan.series.flatMap((s) =>
    s.games.flatMap(({ old, next }) =>
      old && (['open', 'standby', 'complete'] as const).some((b) => old[b].getTime() !== next[b].getTime())
        ? [{ old, next }]
        : [],
    ),
  );
  const pending = await pendingOutcomeCounts(
    tx,
    moved.map(({ old }) => old.uuid),
  );
  return moved.map(({ old, next }) => ({
    uuid: old.uuid,
    state: gameStateAt(next, now, { scored: old.scored, pendingOutcomes: pending.get(old.uuid) ?? 0 }),
  }));
}

/** The community a document names, when it names one well enough to check who may write it. */
function namedCommunity(value: unknown): string | undefined {
  const community = (value as { community?: { endpoint?: unknown } } | null)?.community;
  const endpoint = community && typeof community === 'object' ? community.endpoint : undefined;
  return typeof endpoint === 'string' && SEASON_ENDPOINT_PATTERN.test(endpoint) ? endpoint : undefined;
}

export const CHANGED_SINCE =
  'This community changed since you opened it (another host or tab saved): nothing was saved. ' +
  'Look at their changes, then save yours again.';

const existsAlready = (endpoint: string) =>
  `A community with the endpoint ${endpoint} exists already: nothing was saved. Choose another endpoint.`;

const matches = (ifMatch: '*' | readonly string[], state: CommunityState | undefined) =>
  state !== undefined && (ifMatch === '*' || ifMatch.includes(seasonVersion(seasonOf(state))));

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

/**
 * Imports a season (hosting spec §4): reads it, checks everything and reports every problem at its
 * path (400), then writes all of it in one transaction or nothing. Endpoints and game keys are the
 * identity, so the same file twice changes nothing and an edited file updates in place.
 */
export async function importSeason(
  db: Db,
  source: SeasonSource,
  opts: ImportOptions,
): Promise<SeasonImportResult> {
  let bundle: Bundle | undefined;
  let text: string;
  let format: SeasonFormat;
  if (source.kind === 'zip') {
    bundle = await readBundle(source.bytes);
    ({ text, format } = bundle.season);
  } else {
    ({ text, format } = source);
  }
  if (Buffer.byteLength(text) > SEASON_TEXT_MAX_BYTES)
    throw new HttpError(
      413,
      `The season file is too large (${SEASON_TEXT_MAX_BYTES / 1024 / 1024} MB at most)`,
    );
  const read = await readSeason(text, format);
  if (!('parts' in read)) throw new SeasonRefusal(read.problems);
  try {
    return await importRead(db, read, bundle, opts);
  } catch (err) {
    // Placed here, once, outside the transaction: placing thousands of problems takes a while.
    if (err instanceof SeasonRefusal) throw new SeasonRefusal(await read.placed(err.problems));
    throw err;
  } finally {
    read.release();
  }
}

/** The rest of an import, once the document is read: who may write it, its checks, its writes. */
async function importRead(
  db: Db,
  read: SeasonReading,
  bundle: Bundle | undefined,
  opts: ImportOptions,
): Promise<SeasonImportResult> {
  // Who may write comes before what is wrong: a host learns nothing of a community not theirs.
  const endpoint = namedCommunity(read.value);
  // Community pages are public: whether one exists is no secret.
  const exists = endpoint !== undefined && (await existingCommunities(db, [endpoint])).has(endpoint);
  if (endpoint && opts.into !== undefined && endpoint !== opts.into) {
    const message = exists
      ? `This file is for the community ${endpoint}, not ${opts.into}: import it on that community's page, or change community.endpoint`
      : `This file is for a community ${endpoint}, which does not exist: to import it into ${opts.into}, change community.endpoint to ${opts.into}`;
    throw new SeasonRefusal([{ path: 'community.endpoint', message }]);
  }
  if (endpoint) await opts.authorize(endpoint, exists);
  // Every problem in one answer: the parts of the document that parse are checked on, against the
  // stored state and the images too, whatever their shape problems elsewhere.
  const { parts, problems } = read;
  // No community read, nobody authorized: nothing is looked up for this file (it has problems).
  if (!endpoint) throw new SeasonRefusal(problems);

  const sender = opts.actor.userId === null ? undefined : `account:${opts.actor.userId}`;
  const images = await resolveImages(imageRefs(parts), bundle?.files, opts.uploadsDir, { sender });
  const image = (kind: Parameters<typeof imageKey>[0], ref: string | undefined) =>
    ref === undefined ? null : (images.names.get(imageKey(kind, ref)) ?? ref);

  let moved: { uuid: string; state: GameState }[] = [];
  let result: SeasonImportResult;
  try {
    result = await db.transaction(async (tx) => {
      await lockCommunityEndpoint(tx, endpoint);
      const state = await loadCommunityState(tx, endpoint);
      // Under the lock, so no other import can land between this check and the writes. A file
      // that cannot be imported anyway gets its problems, but none from comparing it with a
      // stored version the host has not seen.
      // Whatever else is wrong: the host meant a new community, and this one holds data.
      if (opts.createOnly && state) throw new HttpError(412, existsAlready(endpoint));
      const stale = opts.ifMatch !== undefined && !matches(opts.ifMatch, state);
      if (stale && problems.length === 0) throw new HttpError(412, CHANGED_SINCE);
      const lookups = {
        categories: await existingCategories(tx, categoryNames(parts)),
        communities: await existingCommunities(
          tx,
          parts.series.flatMap((s) => s.games.flatMap((g) => g.game.subcommunities)),
        ),
      };
      const planned = planSeason(parts, image, stale ? undefined : state, lookups, opts.now);
      const all = inDocumentOrder([...problems, ...images.problems, ...planned.problems], read.value);
      if (all.length > 0) throw new SeasonRefusal(all);
      // A document without problems parses whole, community and all.
      if (!planned.plan) throw new Error('A season without problems has no plan');
      const counts = planCounts(planned.plan);
      let games: PlacedGame[];
      if (opts.dryRun) {
        games = planned.plan.series.flatMap((s) =>
          s.games.map((g) => ({ series: s.endpoint, key: g.next.key, uuid: g.old?.uuid ?? null })),
        );
      } else {
        // Files first: content-addressed, so a rolled-back import leaves only unused pictures.
        await images.store();
        games = await applyPlan(tx, planned.plan, opts.actor);
        moved = await movedGames(tx, planned.plan, opts.now);
      }
      return { ...counts, games, dry_run: opts.dryRun };
    });
  } catch (err) {
    // Two imports creating the same category or game at once: the second finds the first's row.
    if (isUniqueViolation(err))
      throw new HttpError(409, 'Someone changed the same content at the same time: import the file again');
    throw err;
  }
  if (moved.length > 0) await opts.scheduleChanged?.(moved);
  return result;
}

function categoryNames(parts: SeasonParts): string[] {
  return [...(parts.community?.categories ?? []), ...parts.groups.flatMap(([, names]) => names)];
}
