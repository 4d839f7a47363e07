import { z } from 'zod';
import { type RouteDef, defineRoute as route } from './route-def';
import { plainText } from './text';

/**
 * Calls that answer something other than JSON or a plain sentence: a calendar (text/calendar), a
 * share page (text/html) or a picture (image/png). The answer's schema says text or bytes; each
 * entry's comment names its media type, which its handler sets. Part of `httpRoutes`.
 */

const noSuchGame = z.string().uuid('No such game');
const noSuchCommunity = { params: { status: 404, message: 'No such community' } } as const;
const unknownGame = { params: { status: 404 } } as const;
/** A share page's link past what any link holds: the sentence of a missing game. */
const unreadableLink = { params: { status: 404, message: 'No such game' } } as const;
/** A picture's bytes (a Node Buffer on the server, which is a Uint8Array). */
const pngBytes = z.custom<Uint8Array<ArrayBufferLike>>((v) => v instanceof Uint8Array);

export const shareRoutes = {
  /** One game as an iCalendar file (text/calendar): 'Add to calendar'. */
  calendarGame: route({
    method: 'GET',
    path: '/api/calendar/game/:uuid.ics',
    access: 'public',
    params: z.object({ uuid: noSuchGame }),
    bodyKind: 'none',
    responses: { 200: z.string() },
    errors: [404],
    invalid: unknownGame,
    cacheable: true,
  }),
  /** A community's games as a calendar feed (text/calendar) to subscribe to with webcal://. */
  calendarCommunity: route({
    method: 'GET',
    path: '/api/calendar/community/:community.ics',
    access: 'public',
    params: z.object({ community: plainText(200).min(1) }),
    bodyKind: 'none',
    responses: { 200: z.string() },
    errors: [404],
    invalid: noSuchCommunity,
    cacheable: true,
  }),
  /**
   * A game's share link (text/html): Open Graph tags for link previews, and a link on to the game's
   * page, where a browser goes at once.
   */
  shareGame: route({
    method: 'GET',
    path: '/share/game/:uuid',
    access: 'public',
    // Any text: a person who follows a mistyped or old link gets a page (404) that says so and
    // leads on, not a bare sentence. The handler tells a game's id from the rest.
    params: z.object({ uuid: plainText(100) }),
    bodyKind: 'none',
    responses: { 200: z.string() },
    errors: [404],
    invalid: unreadableLink,
  }),
  /** The preview picture of a game's share link (image/png, 1200×630). */
  shareGameImage: route({
    method: 'GET',
    path: '/share/game/:uuid/image.png',
    access: 'public',
    params: z.object({ uuid: noSuchGame }),
    bodyKind: 'none',
    responses: { 200: pngBytes },
    errors: [404, 429],
    // Drawn on demand (a new picture costs 10-70 ms): an address may not have new ones drawn at will
    // (LIMIT_PICTURES_PER_MINUTE; pictures already drawn do not count).
    invalid: unknownGame,
  }),
  /**
   * A player's result in a game (text/html). A private player, an unknown one or one without a
   * score is shown as the game's own share page: the link never tells them apart.
   */
  shareResult: route({
    method: 'GET',
    path: '/share/result/:uuid/:username',
    access: 'public',
    // As the game's link: any text, a page for the missing.
    params: z.object({ uuid: plainText(100), username: plainText(100) }),
    bodyKind: 'none',
    responses: { 200: z.string() },
    errors: [404],
    invalid: unreadableLink,
  }),
  /** The preview picture of a result's share link (image/png, 1200×630). */
  shareResultImage: route({
    method: 'GET',
    path: '/share/result/:uuid/:username/image.png',
    access: 'public',
    params: z.object({ uuid: noSuchGame, username: plainText(100) }),
    bodyKind: 'none',
    responses: { 200: pngBytes },
    errors: [404, 429],
    // Drawn on demand (a new picture costs 10-70 ms): an address may not have new ones drawn at will
    // (LIMIT_PICTURES_PER_MINUTE; pictures already drawn do not count).
    invalid: unknownGame,
  }),
  /**
   * The generated avatar (image/png) of a player without a photo: their profile_img names it. The
   * key is derived from the account, so the same player always gets the same face.
   */
  avatar: route({
    method: 'GET',
    path: '/assets/users/avatar-:key.png',
    access: 'public',
    params: z.object({ key: z.string().regex(/^[0-9a-f]{16}$/, 'No such avatar') }),
    bodyKind: 'none',
    responses: { 200: pngBytes },
    errors: [404, 429],
    // Drawn on demand (a new picture costs 10-70 ms): an address may not have new ones drawn at will
    // (LIMIT_PICTURES_PER_MINUTE; pictures already drawn do not count).
    invalid: { params: { status: 404 } },
  }),
} as const satisfies Record<string, RouteDef>;
