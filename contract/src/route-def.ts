import { z } from 'zod';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** Who may call: checked on the server before the handler runs. */
export type RouteAccess =
  | 'public'
  | 'user'
  // Hosting (hosting spec §1): an admin, or a host: of the route's :community when it has one,
  // else of any community (the handler checks the community it acts on). 'admin': admins only.
  | 'host'
  | 'admin';

/**
 * How the body travels: JSON; a form (multipart or urlencoded, text fields and at most one file,
 * validated by `body` after the file is taken out); or nothing.
 */
export type BodyKind =
  | 'json'
  | 'form'
  | 'none'
  // A season document (YAML, JSON, or a .zip bundle in a multipart form), read by the handler.
  | 'document';

/**
 * A per-address request limit a route declares by name; the server sets its numbers from the
 * environment (LIMIT_REGISTRATIONS_PER_HOUR, LIMIT_FIELD_CHECKS_PER_MINUTE, LIMIT_UPLOADS_PER_HOUR,
 * LIMIT_IMPORTS_PER_HOUR) and answers 429 past it.
 */
export type RateLimitName = 'registrations' | 'fieldChecks' | 'uploads' | 'imports';

/** A text/plain error answer. */
export const errorTextSchema = z.string();

export interface InvalidAnswer {
  status: number;
  /**
   * Sent when the failing check carries zod's own wording (written for developers); a sentence the
   * schema carries ('Invalid username') is sent as it is. Absent: 'Invalid request'.
   */
  message?: string;
}

export interface RouteDef {
  method: HttpMethod;
  /** Fastify-style path: `/api/game/:uuid`. */
  path: string;
  access: RouteAccess;
  params?: z.ZodObject;
  query?: z.ZodObject;
  bodyKind: BodyKind;
  body?: z.ZodType;
  /** A form's one file part: its field name. A form without it refuses a file (400). */
  file?: string;
  /** The success status and the schema of its answer: JSON, or text/plain for a string schema. */
  responses: Partial<Record<200 | 201, z.ZodType>>;
  errors: readonly number[];
  invalid?: { params?: InvalidAnswer; query?: InvalidAnswer; body?: InvalidAnswer };
  /**
   * The answer is the same for every caller (it reads no session): caches may keep it. Every other
   * /api answer is sent with `Cache-Control: no-store`.
   */
  cacheable?: true;
  /** Requests per address are limited (429 past the limit; list 429 in `errors`). */
  rateLimit?: RateLimitName;
}

/** Keeps each entry's literal types (so handlers and callers are typed from it). */
export const defineRoute = <const T extends RouteDef>(def: T): T => def;

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
/** What a caller passes: path parameters, query and body as the route declares them. */
export type RouteParams<R extends RouteDef> = Infer<R['params']>;
export type RouteQuery<R extends RouteDef> = R['query'] extends z.ZodType ? z.input<R['query']> : undefined;
export type RouteBody<R extends RouteDef> = Infer<R['body']>;
/** The JSON of the route's success answer. */
export type RouteResponse<R extends RouteDef> = R['responses'] extends { 200: infer S }
  ? Infer<S>
  : R['responses'] extends { 201: infer S }
    ? Infer<S>
    : never;

/** The status of the route's success answer: 201 for a route that creates, else 200. */
export function successStatus(def: RouteDef): 200 | 201 {
  return def.responses[200] ? 200 : 201;
}

/**
 * What any route may answer before its own checks run, so no entry lists them: 400 for an address
 * or body the server cannot read, 414 for a path parameter over the length limit, 429 for a
 * signed-in player past their calls' limit (LIMIT_CALLS_PER_10_SECONDS); and a call that
 * changes something: 403 without a valid CSRF token, 413 for a body over the size limit, 415 for a
 * body of a type the server does not read.
 */
const ANY_ROUTE_ERRORS: readonly number[] = [400, 414, 429];
const ANY_CHANGE_ERRORS: readonly number[] = [403, 413, 415];

/** Whether a route may answer with an error status: its own `errors`, or one any route may give. */
export function mayAnswer(def: RouteDef, status: number): boolean {
  return (
    def.errors.includes(status) ||
    ANY_ROUTE_ERRORS.includes(status) ||
    (def.method !== 'GET' && ANY_CHANGE_ERRORS.includes(status))
  );
}

/** The schema of the route's success answer (200 or 201). */
export function successSchema(def: RouteDef): z.ZodType {
  const schema = def.responses[successStatus(def)];
  if (!schema) throw new Error(`${def.method} ${def.path} declares no success answer`);
  return schema;
}

/**
 * The URL of a call: path parameters encoded into the path, defined query values appended. The one
 * way the web builds an address, so no screen writes `/api/...` itself.
 */
export function routeUrl(
  def: RouteDef,
  params?: Record<string, string>,
  query?: Record<string, string | number | boolean | undefined | null>,
): string {
  const path = def.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${def.path}: missing parameter ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}
