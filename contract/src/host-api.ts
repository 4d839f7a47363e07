import { z } from 'zod';
import { gameStateSchema } from './games';

/** Answers of the hosting calls (hosting spec §5) besides season import and export. */

/** A community as the console lists it: what it is, and what waits for its hosts. */
export const hostedCommunitySchema = z.object({
  endpoint: z.string(),
  name: z.string(),
  image: z.string(),
  kind: z.enum(['public', 'geo']),
  listed: z.boolean(),
  /** The next game to open or in play, if any. */
  next_game: z
    .object({
      uuid: z.string(),
      name: z.string(),
      series: z.string(),
      state: gameStateSchema,
      open: z.string(),
      standby: z.string(),
      complete: z.string(),
      /** Its own outcomes still to enter (the community's are in `waiting`). */
      pending: z.number().int(),
    })
    .nullable(),
  /** What waits for a host: pending predict outcomes of games past standby. */
  waiting: z.object({ outcomes: z.number().int() }),
});
export type HostedCommunity = z.infer<typeof hostedCommunitySchema>;

export const hostCommunitiesSchema = z.object({
  /** Admins see every community and may create communities and grant hosts. */
  admin: z.boolean(),
  communities: z.array(hostedCommunitySchema),
});
export type HostCommunities = z.infer<typeof hostCommunitiesSchema>;

/**
 * Whether the signed-in user may open the console (an admin, or a host of some community): the
 * footer's Host link asks this, which answers every player 200, where the list answers them 403.
 */
export const hostRoleSchema = z.object({ host: z.boolean() });
export type HostRole = z.infer<typeof hostRoleSchema>;

/** The hosts of a community (usernames), after a grant or a revoke. */
export const communityHostsSchema = z.object({ community: z.string(), hosts: z.array(z.string()) });
export type CommunityHosts = z.infer<typeof communityHostsSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  /** The username, or 'command line'. */
  who: z.string(),
  /** What was done: 'community.created', 'game.updated', 'host.granted', ... */
  action: z.string(),
  /** What it was done to: an endpoint, 'series/key', a username. */
  target: z.string(),
  old: z.unknown(),
  new: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Newest first; `next` is the `before` of the following page, null on the last. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  next: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/**
 * PUT /api/host/outcome: a predict's outcome, or a question voided (`void: false` restores it).
 * `was`: the outcome the host saw (null: none yet); when another tab or host has changed it since,
 * the correction is refused (409) rather than silently replacing a value the host never saw.
 */
export const hostOutcomeSchema = z.union([
  z.strictObject({ outcome: z.number(), was: z.number().nullable().optional() }),
  z.strictObject({ void: z.boolean() }),
]);
export type HostOutcome = z.infer<typeof hostOutcomeSchema>;

/** POST /api/host/image: the stored image's name, for a season document's `image` fields. */
export const hostImageSchema = z.object({ name: z.string() });
export type HostImage = z.infer<typeof hostImageSchema>;

/** DELETE /api/host/game: the game that is gone (only ever before it opens). */
export const hostDeletedGameSchema = z.object({ deleted: z.string() });

/**
 * GET /api/host/games/{community}: what the console needs beside the season document (which
 * has no uuids, states or voids): each game's identity and state, and each question's outcome.
 */
export const hostGameQuestionSchema = z.object({
  /** 0-based, as in answers and PUT /api/host/outcome. */
  i: z.number().int(),
  kind: z.enum(['vote', 'guess', 'predict']),
  text: z.string(),
  /** A predict's outcome: the number entered or computed, 'crowd' before scoring, or 'pending'. */
  outcome: z.union([z.number(), z.literal('crowd'), z.literal('pending')]).nullable(),
  slider: z.object({ min: z.number(), max: z.number(), step: z.number(), unit: z.string() }).nullable(),
  voided: z.boolean(),
});
export const hostGameSchema = z.object({
  series: z.string(),
  key: z.string(),
  uuid: z.string(),
  name: z.string(),
  state: gameStateSchema,
  /** Opened (schedule.open passed): questions and choices are locked, deleting is refused. */
  locked: z.boolean(),
  schedule: z.object({ open: z.string(), standby: z.string(), complete: z.string() }),
  participants: z.number().int(),
  questions: z.array(hostGameQuestionSchema),
});
export type HostGame = z.infer<typeof hostGameSchema>;
export const hostGamesSchema = z.object({ community: z.string(), games: z.array(hostGameSchema) });
export type HostGames = z.infer<typeof hostGamesSchema>;

/** One entity tag of If-Match, weak (`W/`, as a compressing proxy may mark it) or strong. */
const ENTITY_TAG = '(?:W/)?"[A-Za-z0-9_-]{1,100}"';

/**
 * A season document's version: the ETag of its export, which an import names in If-Match to save
 * only over that version (412 when the community changed since; `*`: any version). Decision 034.
 * Parsed into `*` or the versions named (up to 20; a list matches when one of them is current).
 * A weak tag counts as its strong one: the tag hashes the document's content, whatever encoding a
 * proxy gave the export, so a save through a proxy that weakened it still goes through.
 */
export const seasonVersionSchema = z
  .string()
  .regex(
    new RegExp(`^(\\*|${ENTITY_TAG}(\\s*,\\s*${ENTITY_TAG}){0,19})$`),
    'If-Match must be the ETag of the community’s export, or *',
  )
  .transform((header): '*' | string[] =>
    header === '*' ? '*' : header.split(',').map((tag) => tag.trim().replace(/^W\//, '')),
  );
