import {
  httpRoutes,
  type InvalidAnswer,
  metricsRoutes,
  type RouteDef,
  type RouteResponse,
  successStatus,
} from '@hunch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { guardAccess } from '../auth-guards';
import { readForm, type UploadedFile } from './form-body';
import { HttpError } from './http-error';
import { routeRateLimit } from './rate-limits';

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What a handler gets: its route's input, parsed and typed from the table entry. */
export interface RouteInput<R extends RouteDef> {
  params: Parsed<R['params']>;
  query: Parsed<R['query']>;
  body: Parsed<R['body']>;
  /** A form's file part, when one was sent (the form's text fields are `body`). */
  file: R['file'] extends string ? UploadedFile | undefined : undefined;
  /** The logged-in user: always there on a 'user', 'host' or 'admin' route. */
  userId: R['access'] extends 'public' ? number | null : number;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Acts and returns the route's success answer; refusals are thrown as HttpError. */
export type RouteHandler<R extends RouteDef> = (input: RouteInput<R>) => Promise<RouteResponse<R>>;

/** Where registerRoute leaves the entry, so the table guard can tell its routes from stray ones. */
const ENTRY = 'routeTableEntry';

// zod's own wording ('Too small: expected number to be >=0') is for developers; our schemas carry
// the sentences people read, and anything else gets the route's plain text.
const zodWording =
  /^(Invalid input|Too (small|big)|Invalid (string|option|type|format|element|key|union|value)|Unrecognized)|expected/i;

/** Whether a request announces a body (a length, or chunks). */
const hasBody = (request: FastifyRequest) =>
  (request.headers['content-length'] ?? '0') !== '0' || request.headers['transfer-encoding'] !== undefined;

/** True when some text in the value holds a NUL character, which PostgreSQL text cannot store. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value && typeof value === 'object') return Object.values(value).some(holdsNul);
  return false;
}

/** Validates one part of the input at the edge; the first problem becomes the route's refusal. */
function parsePart<T>(schema: z.ZodType<T>, data: unknown, invalid?: InvalidAnswer): T {
  const result = schema.safeParse(data);
  const fallback = invalid?.message ?? 'Invalid request';
  if (result.success) {
    // A backstop, kept on purpose: the contract's text schemas (plainText, freeText) refuse NUL,
    // but a schema written later with a bare z.string() would pass one to PostgreSQL, which fails
    // with a 500. One walk over a parsed input is cheap beside that.
    if (holdsNul(result.data)) throw new HttpError(invalid?.status ?? 400, fallback);
    return result.data;
  }
  const issue = result.error.issues[0];
  const text = issue && !zodWording.test(issue.message) ? issue.message : fallback;
  throw new HttpError(invalid?.status ?? 400, text);
}

/**
 * A query parameter of the route given more than once (`?c=a&c=b`): the query parser makes a list
 * of it, which the schema would refuse in zod's words ('Invalid request'), or a `.catch` would
 * swallow. Named instead, at this one place for every route: no query of the table takes a list.
 * A parameter the route does not read is dropped by its schema, repeated or not.
 */
function refuseRepeated(schema: z.ZodObject, query: unknown): void {
  if (!query || typeof query !== 'object') return;
  const repeated = Object.keys(schema.shape).find((name) =>
    Array.isArray((query as Record<string, unknown>)[name]),
  );
  if (repeated !== undefined) throw new HttpError(400, `Give ${repeated} only once`);
}

/**
 * The one way to add an HTTP handler: method and path come from the route's table entry, `access`
 * and the entry's rate limit (when it names one) are checked, then params, query and body are
 * parsed with the entry's schemas (a form is read into text fields and at most one file first),
 * and the handler's answer is sent with the entry's success status. Errors leave through the
 * app's error handler as text/plain.
 */
export function registerRoute<const R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  handler: RouteHandler<R>,
): void {
  const status = successStatus(def);
  app.route({
    method: def.method,
    url: def.path,
    // A declared limit is @fastify/rate-limit's route option: it counts before anything is read.
    config: { [ENTRY]: def, ...(def.rateLimit && { rateLimit: routeRateLimit(app, def.rateLimit) }) },
    // Who may call is settled before the body is read: a 20 MB season file from a stranger is
    // refused at its headers, not held in memory first.
    preParsing: async (request, reply, payload) => {
      try {
        await guardAccess(def.access, request);
      } catch (refusal) {
        // The body stays unread: rather than take it in to reach the next request, the connection
        // ends with this answer.
        if (hasBody(request)) reply.header('connection', 'close');
        throw refusal;
      }
      return payload;
    },
    handler: async (request, reply) => {
      // guardAccess passed: on a route that is not public, the session's user is there.
      const userId = request.userId;
      const params = def.params ? parsePart(def.params, request.params, def.invalid?.params) : undefined;
      if (def.query) refuseRepeated(def.query, request.query);
      const query = def.query ? parsePart(def.query, request.query, def.invalid?.query) : undefined;
      let body: unknown;
      let file: UploadedFile | undefined;
      if (def.bodyKind === 'form') {
        const form = await readForm(request, def.file);
        file = form.file;
        if (def.body) body = parsePart(def.body, form.fields, def.invalid?.body);
      } else if (def.bodyKind === 'json' && def.body) {
        // No body at all reads as an empty object, so the schema names what is missing.
        body = parsePart(def.body, request.body ?? {}, def.invalid?.body);
      }
      reply.code(status);
      // The parts above were parsed with this entry's own schemas, which is what RouteInput<R> says.
      return handler({ params, query, body, file, userId, request, reply } as RouteInput<R>);
    },
  });
}

/** The table entry of the route a request matched, when it is one (registered by registerRoute). */
export function routeEntryOf(request: FastifyRequest): RouteDef | undefined {
  // Fastify types a route's config without our key; registerRoute put the entry there.
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return config?.[ENTRY] as RouteDef | undefined;
}

/** Every route the app may serve under /api/: the web's and the benchmark's. */
const tables: Record<string, RouteDef>[] = [httpRoutes, metricsRoutes];

/**
 * An onRoute hook that refuses, while the app is being built, any /api/ route that is not a table
 * entry registered through registerRoute: a route that is not in the table cannot be served.
 */
export function onlyTableRoutes(): (route: RouteOptions) => void {
  const entries = new Map<string, RouteDef>();
  for (const table of tables) {
    for (const def of Object.values(table)) entries.set(`${def.method} ${def.path}`, def);
  }
  return (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD route beside each GET, with the GET's options.
      const entry = entries.get(`${method === 'HEAD' ? 'GET' : method} ${route.url}`);
      const registered = (route.config as Record<string, unknown> | undefined)?.[ENTRY];
      if (!entry || registered !== entry) {
        throw new Error(
          `${method} ${route.url} is not in the contract's route table: add it to httpRoutes and register it with registerRoute`,
        );
      }
    }
  };
}
