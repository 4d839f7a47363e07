import { z } from 'zod';
import {
  accountMessages,
  checkFields,
  genderSchema,
  loginSchema,
  profileSchema,
  profileVisibilitySchema,
  registrationSchema,
  zipcodeCheckResultSchema,
} from './accounts';
import {
  communitySchema,
  communitySearchQuerySchema,
  communitySearchSchema,
  joinedListSchema,
} from './communities';
import {
  answerPayloadSchema,
  answerResultSchema,
  communityRankSchema,
  communityRowSchema,
  enterGameSchema,
  gameHistoryQuerySchema,
  gameHistorySchema,
  gameSchema,
  leaderboardQuerySchema,
  myResultSchema,
  participationSchema,
  playerRowSchema,
  playGamesSchema,
  questionStatsResponseSchema,
  seriesSchema,
  statsQuerySchema,
} from './games';
import { hostRoutes } from './host-routes';
import { type RouteDef, defineRoute as route } from './route-def';
import { shareRoutes } from './share-routes';
import { plainText } from './text';

/**
 * Every HTTP call of the app, written once (decision 014). The server registers its handlers
 * against these entries (a route that is not here cannot be registered) and the web client calls
 * through them, so a path, a parameter, a body or an answer's shape has one place.
 *
 * Error answers are text/plain sentences a person reads (spec §8); `errors` lists the statuses a
 * route may answer with besides its successes and those any route may give (route-def mayAnswer);
 * every server test app checks each answer against it. Parameters, query and body are validated at the
 * edge with the schemas below: a malformed part answers 400 with its schema's sentence, and
 * `invalid` changes the status, or the text used when the schema has no sentence of its own (an
 * unknown game's id answers like a missing game: 404 'No such game').
 */

/** A malformed game id is as unknown as a missing game. */
const uuidParams = z.object({ uuid: z.string().uuid('No such game') });
const unknownGame = { params: { status: 404 } } as const;

/** The register form: an empty gender means 'Prefer not to answer', the same as leaving it out. */
const registrationFormSchema = registrationSchema.extend({
  gender: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    genderSchema.optional(),
  ),
});

/** The players' calls (spec §7). */
const playerRoutes = {
  csrf: route({
    method: 'GET',
    path: '/api/csrf',
    access: 'public',
    bodyKind: 'none',
    responses: { 200: z.object({ token: z.string() }) },
    errors: [],
  }),
  checkRegistration: route({
    method: 'GET',
    path: '/api/check_registration/:field',
    access: 'public',
    params: z.object({
      field: z.enum(checkFields, { error: (issue) => `Unknown registration field: ${String(issue.input)}` }),
    }),
    // A missing or malformed value is checked as empty, so it gets the field's own 'Invalid …' text.
    query: z.object({
      check: plainText(300).catch(''),
    }),
    bodyKind: 'none',
    // zipcode answers {name}; the other fields answer the text 'OK'. Refusals are spec §5's texts.
    responses: { 200: zipcodeCheckResultSchema.or(z.literal('OK')) },
    errors: [400, 403, 404, 409, 429],
    invalid: { params: { status: 404 } },
    rateLimit: 'fieldChecks',
  }),
  register: route({
    method: 'POST',
    path: '/api/register',
    access: 'public',
    bodyKind: 'form',
    body: registrationFormSchema,
    file: 'profile_img',
    responses: { 201: profileSchema },
    errors: [400, 403, 404, 409, 413, 415, 429],
    invalid: { body: { status: 400, message: 'Please fill in every required field' } },
    rateLimit: 'registrations',
  }),
  login: route({
    method: 'PUT',
    path: '/api/login',
    access: 'public',
    bodyKind: 'form',
    body: loginSchema,
    responses: { 200: profileSchema },
    errors: [400, 401, 429],
    invalid: { body: { status: 400, message: accountMessages.loginRequired } },
  }),
  logout: route({
    method: 'PUT',
    path: '/api/logout',
    access: 'public',
    bodyKind: 'none',
    responses: { 200: z.literal('Logged out') },
    errors: [],
  }),
  profile: route({
    method: 'GET',
    path: '/api/profile',
    access: 'user',
    query: z.object({ u: plainText(100).optional() }),
    bodyKind: 'none',
    responses: { 200: profileSchema },
    errors: [400, 401, 404],
  }),
  profileVisibility: route({
    method: 'PUT',
    path: '/api/profile_visibility',
    access: 'user',
    bodyKind: 'json',
    body: profileVisibilitySchema,
    responses: { 200: profileSchema },
    errors: [400, 401],
    invalid: {
      body: { status: 400, message: 'Send {"private_profile": true} or {"private_profile": false}' },
    },
  }),
  profileImage: route({
    method: 'PUT',
    path: '/api/profile_image',
    access: 'user',
    // One file part named profile_img; no text fields.
    bodyKind: 'form',
    file: 'profile_img',
    responses: { 200: profileSchema },
    errors: [400, 401, 413, 415, 429],
    // Each upload is decoded and re-encoded: counted per address like the hosts' images.
    rateLimit: 'uploads',
  }),
  communitySearch: route({
    method: 'GET',
    path: '/api/community_search',
    access: 'public',
    // q (words of a name) is ours, beside the spec's c (a category).
    query: communitySearchQuerySchema,
    bodyKind: 'none',
    responses: { 200: communitySearchSchema },
    cacheable: true,
    errors: [400],
  }),
  community: route({
    method: 'GET',
    path: '/api/community/:id',
    access: 'public',
    params: z.object({ id: plainText(200) }),
    bodyKind: 'none',
    responses: { 200: communitySchema },
    errors: [404],
  }),
  joinedCommunities: route({
    method: 'GET',
    path: '/api/joined_communities',
    access: 'user',
    bodyKind: 'none',
    responses: { 200: joinedListSchema },
    errors: [401],
  }),
  joinCommunity: route({
    method: 'PUT',
    path: '/api/community_membership/:id',
    access: 'user',
    params: z.object({ id: plainText(200) }),
    bodyKind: 'none',
    responses: { 200: joinedListSchema },
    errors: [401, 404],
  }),
  leaveCommunity: route({
    method: 'DELETE',
    path: '/api/community_membership/:id',
    access: 'user',
    params: z.object({ id: plainText(200) }),
    bodyKind: 'none',
    responses: { 200: joinedListSchema },
    errors: [401, 404],
  }),
  series: route({
    method: 'GET',
    path: '/api/series/:community/:series',
    access: 'public',
    params: z.object({ community: plainText(200), series: plainText(200) }),
    bodyKind: 'none',
    responses: { 200: seriesSchema },
    errors: [404],
  }),
  game: route({
    method: 'GET',
    path: '/api/game/:uuid',
    access: 'public',
    params: uuidParams,
    bodyKind: 'none',
    responses: { 200: gameSchema },
    errors: [404],
    invalid: unknownGame,
  }),
  playGames: route({
    method: 'GET',
    path: '/api/play_games',
    access: 'user',
    bodyKind: 'none',
    responses: { 200: playGamesSchema },
    errors: [401],
  }),
  participation: route({
    method: 'GET',
    path: '/api/participation/:uuid',
    access: 'user',
    params: uuidParams,
    bodyKind: 'none',
    responses: { 200: participationSchema },
    // 404 also means "not entered yet" (spec §7: "otherwise none").
    errors: [401, 404],
    invalid: unknownGame,
  }),
  enterGame: route({
    method: 'POST',
    path: '/api/participation/:uuid',
    access: 'user',
    params: uuidParams,
    bodyKind: 'json',
    body: enterGameSchema,
    responses: { 200: participationSchema },
    errors: [400, 401, 403, 404, 409],
    invalid: { ...unknownGame, body: { status: 400, message: 'Send {"subcommunity": endpoint or null}' } },
  }),
  answer: route({
    method: 'PUT',
    path: '/api/answer/:series/:uuid',
    access: 'user',
    params: uuidParams.extend({ series: plainText(200) }),
    bodyKind: 'json',
    body: answerPayloadSchema,
    responses: { 200: answerResultSchema },
    errors: [400, 401, 403, 404, 409],
    invalid: { ...unknownGame, body: { status: 400, message: 'Send {question_i, choice_i, number_answer}' } },
  }),
  leaderboard: route({
    method: 'GET',
    path: '/api/leaderboard/:uuid',
    access: 'user',
    params: uuidParams,
    query: leaderboardQuerySchema,
    bodyKind: 'none',
    // Keyed by username, or by community endpoint with bycommunity=1.
    responses: { 200: z.record(z.string(), playerRowSchema.or(communityRowSchema)) },
    errors: [400, 401, 403, 404],
    invalid: { ...unknownGame, query: { status: 400, message: 'Invalid page' } },
  }),
  questionStats: route({
    method: 'GET',
    path: '/api/question_stats/:uuid',
    access: 'user',
    params: uuidParams,
    query: statsQuerySchema,
    bodyKind: 'none',
    responses: { 200: questionStatsResponseSchema },
    errors: [400, 401, 403, 404],
    invalid: { ...unknownGame, query: { status: 400, message: 'Unknown statistics filter' } },
  }),
  communityRank: route({
    method: 'GET',
    path: '/api/community_rank/:community',
    access: 'user',
    params: z.object({ community: plainText(200) }),
    query: z.object({ u: plainText(100).optional() }),
    bodyKind: 'none',
    responses: { 200: communityRankSchema },
    errors: [400, 401, 404],
    invalid: { query: { status: 400, message: 'Unknown player' } },
  }),
  /** The viewer's own result in a completed game: points per question (the breakdown), rank of N. */
  myResult: route({
    method: 'GET',
    path: '/api/my_result/:uuid',
    access: 'user',
    params: uuidParams,
    bodyKind: 'none',
    responses: { 200: myResultSchema },
    // 404 also means the viewer has no entry in the game.
    errors: [401, 403, 404],
    invalid: unknownGame,
  }),
  /** A player's completed games (profile), newest first; a private profile's only to its owner. */
  gameHistory: route({
    method: 'GET',
    path: '/api/game_history',
    access: 'user',
    query: gameHistoryQuerySchema,
    bodyKind: 'none',
    responses: { 200: gameHistorySchema },
    errors: [400, 401, 403, 404],
    // A page that is no number at all fails before its own sentence can be given.
    invalid: { query: { status: 400, message: 'Invalid page' } },
  }),
} as const satisfies Record<string, RouteDef>;

export const httpRoutes = { ...playerRoutes, ...hostRoutes, ...shareRoutes } as const satisfies Record<
  string,
  RouteDef
>;

export type HttpRoutes = typeof httpRoutes;
export type RouteName = keyof HttpRoutes;
