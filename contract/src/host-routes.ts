import { z } from 'zod';
import { gameSchema } from './games';
import {
  auditPageSchema,
  communityHostsSchema,
  hostCommunitiesSchema,
  hostDeletedGameSchema,
  hostGamesSchema,
  hostImageSchema,
  hostOutcomeSchema,
  hostRoleSchema,
} from './host-api';
import { type RouteDef, defineRoute as route } from './route-def';
import { seasonFileSchema, seasonImportResultSchema } from './season';

/** A host route's community and account: as the URL names them; malformed means unknown. */
const urlName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}]*$/u);
const hostCommunityParams = z.object({ community: urlName });
const hostAccountParams = z.object({ community: urlName, username: urlName });
const unknownCommunity = { params: { status: 404, message: 'No such community or account' } } as const;

/** The hosting calls (hosting spec §4-§5); part of `httpRoutes`. */
export const hostRoutes = {
  // Hosting (hosting spec §4-§5). A host route naming a :community is for that community's hosts
  // and the admins; the others check the community they act on themselves.
  hostCommunities: route({
    method: 'GET',
    path: '/api/host/communities',
    access: 'host',
    bodyKind: 'none',
    responses: { 200: hostCommunitiesSchema },
    errors: [401, 403],
  }),
  // Not in the hosting spec: the footer's question, which a player's page asks on every load, so
  // that a player's answer is not a refused call (the list is 403 for them, as §5 says).
  hostRole: route({
    method: 'GET',
    path: '/api/host/role',
    access: 'user',
    bodyKind: 'none',
    responses: { 200: hostRoleSchema },
    errors: [401],
  }),
  communityHosts: route({
    method: 'GET',
    path: '/api/host/hosts/:community',
    access: 'host',
    params: hostCommunityParams,
    bodyKind: 'none',
    responses: { 200: communityHostsSchema },
    errors: [401, 403, 404],
    invalid: unknownCommunity,
  }),
  grantHost: route({
    method: 'PUT',
    path: '/api/host/hosts/:community/:username',
    access: 'admin',
    params: hostAccountParams,
    bodyKind: 'none',
    responses: { 200: communityHostsSchema },
    errors: [401, 403, 404],
    invalid: unknownCommunity,
  }),
  revokeHost: route({
    method: 'DELETE',
    path: '/api/host/hosts/:community/:username',
    access: 'admin',
    params: hostAccountParams,
    bodyKind: 'none',
    responses: { 200: communityHostsSchema },
    errors: [401, 403, 404],
    invalid: unknownCommunity,
  }),
  seasonSchema: route({
    method: 'GET',
    path: '/api/host/season.schema.json',
    access: 'public',
    bodyKind: 'none',
    // The JSON Schema of season files, generated from the contract's seasonSchema.
    responses: { 200: z.record(z.string(), z.unknown()) },
    errors: [],
  }),
  seasonImport: route({
    method: 'POST',
    path: '/api/host/import',
    access: 'host',
    query: z.object({
      dry_run: z
        .enum(['1', '0', 'true', 'false'])
        .optional()
        .transform((v) => v === '1' || v === 'true'),
      // The community imported into (the console's page of it): a file for another is a 400.
      community: urlName.optional(),
    }),
    // application/yaml, application/json, application/zip, or multipart with the field `season`.
    bodyKind: 'document',
    responses: { 200: seasonImportResultSchema },
    // 400 answers JSON {errors: [{path, message, line?, column?}]} (seasonProblemsSchema): every
    // problem of the document at its path. The other refusals are sentences (a malformed If-Match
    // among them). An If-Match header (seasonVersionSchema) saves only over that version of the
    // community: 412 when it changed. If-None-Match: * creates it only: 412 when it exists.
    errors: [400, 401, 403, 409, 412, 413, 415, 429],
    invalid: { query: { status: 400, message: 'dry_run is 1 or 0, and community names one community' } },
    // A file is parsed, checked against the database and may bring 20 MB of images to re-encode:
    // not something one address may repeat at will. Every console save is one.
    rateLimit: 'imports',
  }),
  seasonExport: route({
    method: 'GET',
    path: '/api/host/export/:community',
    access: 'host',
    params: hostCommunityParams,
    bodyKind: 'none',
    // YAML text; the same document as JSON with `Accept: application/json`. Its ETag header is
    // the document's version (seasonVersionSchema), the same for both.
    responses: { 200: z.string().or(seasonFileSchema) },
    errors: [401, 403, 404],
    invalid: unknownCommunity,
  }),
  hostOutcome: route({
    method: 'PUT',
    path: '/api/host/outcome/:uuid/:question_i',
    // A host of the game's community (the handler finds it from the game).
    access: 'host',
    params: z.object({
      uuid: z.string().uuid('No such game'),
      question_i: z.coerce.number().int().min(0).max(1_000),
    }),
    bodyKind: 'json',
    body: hostOutcomeSchema,
    // The game, with its state: 'results' until every pending outcome is in, then scored.
    responses: { 200: gameSchema },
    errors: [400, 401, 403, 404, 409],
    invalid: {
      params: { status: 404, message: 'No such game or question' },
      body: { status: 400, message: 'Send {"outcome": number} or {"void": true}' },
    },
  }),
  hostAudit: route({
    method: 'GET',
    path: '/api/host/audit/:community',
    access: 'host',
    params: hostCommunityParams,
    query: z.object({ before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() }),
    bodyKind: 'none',
    responses: { 200: auditPageSchema },
    errors: [400, 401, 403, 404],
    invalid: { ...unknownCommunity, query: { status: 400, message: 'before is the id of an entry' } },
  }),
  hostGames: route({
    method: 'GET',
    path: '/api/host/games/:community',
    access: 'host',
    params: hostCommunityParams,
    bodyKind: 'none',
    responses: { 200: hostGamesSchema },
    errors: [401, 403, 404],
    invalid: unknownCommunity,
  }),
  hostImage: route({
    method: 'POST',
    path: '/api/host/image',
    // A host (of any community) or an admin: the image is only named by a later season write,
    // which checks the community it goes to.
    access: 'host',
    // Where the image will be shown: the folder and size it is re-encoded to.
    query: z.object({ kind: z.enum(['communities', 'games', 'questions']) }),
    // One file part named `image`, checked by its bytes and re-encoded like a profile image.
    bodyKind: 'form',
    file: 'image',
    responses: { 201: hostImageSchema },
    errors: [400, 401, 403, 413, 415, 429],
    invalid: { query: { status: 400, message: 'kind is communities, games or questions' } },
    rateLimit: 'uploads',
  }),
  hostDeleteGame: route({
    method: 'DELETE',
    path: '/api/host/game/:uuid',
    // A host of the game's community (the handler finds it from the game).
    access: 'host',
    params: z.object({ uuid: z.string().uuid('No such game') }),
    bodyKind: 'none',
    responses: { 200: hostDeletedGameSchema },
    // 409: the game has opened (answers refer to its questions).
    errors: [401, 403, 404, 409],
    invalid: { params: { status: 404, message: 'No such game' } },
  }),
} as const satisfies Record<string, RouteDef>;
