import {
  ACCOUNT_HEADER,
  accountMessages,
  httpRoutes,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  routeUrl,
  successSchema,
} from '@hunch/contract';

/**
 * The one fetch client: every call names an entry of the contract's route table (`httpRoutes`), which
 * gives its method, its URL, the types of what is sent and the schema of what comes back. Same-origin
 * cookies carry the session; every state-changing call carries the CSRF token from the csrf route.
 * Error answers are text/plain human messages, so an ApiError's message is exactly what the server
 * said and can be shown as is.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A part the route declares is required unless every field of it is optional; one it lacks is absent. */
type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/**
 * A form route's body travels as FormData (text fields and a file), a JSON route's as its schema says,
 * a document route's (season import) as a Blob whose type is the document's content type, or FormData
 * carrying the file.
 */
type CallBody<R extends RouteDef> = R['bodyKind'] extends 'form'
  ? FormData
  : R['bodyKind'] extends 'json'
    ? RouteBody<R>
    : R['bodyKind'] extends 'document'
      ? Blob | FormData
      : undefined;

/** What a call passes: the route's path parameters, query and body, typed from its entry. */
export type CallInput<R extends RouteDef> = Part<'params', RouteParams<R>> &
  Part<'query', RouteQuery<R>> &
  Part<'body', CallBody<R>> & {
    /** If-Match: write only over this version of what the call changes (412 otherwise). */
    ifMatch?: string;
    /** If-None-Match: *: create only (412 when it exists). */
    ifNoneMatch?: '*';
  };

/** The same input with the entry's types forgotten, as the URL builder and fetch take it. */
interface LooseInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  ifMatch?: string;
  ifNoneMatch?: '*';
}

/** Makes `input` optional for routes that need nothing (csrf, logout, play_games...). */
type InputArg<R extends RouteDef> =
  object extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

let csrfToken: Promise<string> | null = null;

async function fetchCsrfToken(): Promise<string> {
  // A GET: it never asks for a token itself.
  const { token } = await callApi(httpRoutes.csrf);
  return token;
}

function csrf(): Promise<string> {
  csrfToken ??= fetchCsrfToken().catch((err: unknown) => {
    // A failed fetch must not be cached, or every later write would fail too.
    csrfToken = null;
    throw err;
  });
  return csrfToken;
}

/**
 * The account this tab shows, as the server last named it (ACCOUNT_HEADER), sent back with each
 * write: the server refuses one when its session is now another account's (decision 036).
 */
let account: string | null = null;
let otherAccountTold = false;

/** The account this tab shows, for a live socket's handshake; null when none has been named. */
export function shownAccount(): string | null {
  return account;
}

/**
 * How the session under this tab changed: `other-account` (an answer named someone else: a login
 * in another tab), `signed-out` (a call found no session: a logout elsewhere, or it expired),
 * `this-tab` (this tab logged in, registered or logged out: worth telling the other tabs).
 */
export type SessionChange = 'other-account' | 'signed-out' | 'this-tab';
const sessionListeners = new Set<(change: SessionChange) => void>();

function tellSession(change: SessionChange): void {
  for (const listener of sessionListeners) listener(change);
}

/** Calls `listener` on each change of the session under this tab; returns the unsubscribe. */
export function onSessionChange(listener: (change: SessionChange) => void): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

/** What an answer says of the session: another account than this tab's, or none left. */
function watchSession(def: RouteDef, res: Response): void {
  const named = res.headers.get(ACCOUNT_HEADER);
  if (named !== null) {
    if (account === null) account = named;
    else if (named !== account && !otherAccountTold) {
      // Once: each answer after it names the other account too, and the app starts over at the first.
      otherAccountTold = true;
      tellSession('other-account');
    }
  } else if (res.status === 401 && def.access !== 'public' && account !== null) {
    account = null;
    tellSession('signed-out');
  }
}

/**
 * This tab logged in, registered or logged out: the CSRF token may be bound to the old session, and
 * the account is another.
 */
export function sessionChanged(): void {
  csrfToken = null;
  account = null;
  otherAccountTold = false;
  tellSession('this-tab');
}

async function sendOnce(def: RouteDef, input: LooseInput): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json, text/plain' };
  let payload: BodyInit | undefined;
  if ((def.bodyKind === 'form' || def.bodyKind === 'document') && input.body instanceof FormData) {
    // No content-type: the browser writes the multipart boundary itself.
    payload = input.body;
  } else if (def.bodyKind === 'document' && input.body instanceof Blob) {
    // The server reads a document by its content type (YAML, JSON or a .zip).
    if (input.body.type) headers['content-type'] = input.body.type;
    payload = input.body;
  } else if (def.bodyKind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(input.body ?? {});
  }
  if (input.ifMatch !== undefined) headers['if-match'] = input.ifMatch;
  if (input.ifNoneMatch !== undefined) headers['if-none-match'] = input.ifNoneMatch;
  if (def.method !== 'GET') {
    headers['x-csrf-token'] = await csrf();
    if (account !== null) headers[ACCOUNT_HEADER] = account;
  }
  const res = await fetch(routeUrl(def, input.params, input.query), {
    method: def.method,
    headers,
    body: payload,
    credentials: 'same-origin',
  });
  watchSession(def, res);
  return res;
}

/**
 * Sends a call and returns the raw Response, whatever its status: for the few calls whose error
 * answers are verdicts to read (a field check, a refused answer). A 403 on a write may mean a stale
 * CSRF token (the session rotated), so the token is fetched again and the call retried once.
 */
export async function sendApi<R extends RouteDef>(def: R, ...[input]: InputArg<R>): Promise<Response> {
  // The entry's typed input, seen as plain records: routeUrl encodes each value itself.
  const loose = (input ?? {}) as LooseInput;
  const res = await sendOnce(def, loose);
  if (res.status !== 403 || def.method === 'GET') return res;
  // Only a refused security token is worth a retry; other 403s (too young, game closed) are final.
  if ((await res.clone().text()) !== accountMessages.csrfRefused) return res;
  csrfToken = null;
  return sendOnce(def, loose);
}

/** Turns a non-2xx answer into an ApiError carrying the server's text. */
export async function errorFrom(res: Response): Promise<ApiError> {
  const text = (await res.text()).trim();
  return new ApiError(res.status, text || res.statusText || `Request failed (${res.status})`);
}

/** The route's success schema, as `readSuccess` takes it. */
export type SuccessCheck = ReturnType<typeof successSchema>;

/**
 * A success answer read and checked against the route's schema (JSON, or text for a text answer).
 * `check` is `successSchema(def)` asked for before the request was sent: in the browser build it
 * starts loading the route's own schemas (decision 031), which then travel beside the answer.
 */
export async function readSuccess<R extends RouteDef>(
  def: R,
  res: Response,
  check: SuccessCheck = successSchema(def),
): Promise<RouteResponse<R>> {
  const json = res.headers.get('content-type')?.includes('json');
  const body: unknown = json ? await res.json() : await res.text();
  // The schema is the entry's own success schema, so its output is the entry's response type. Async:
  // the browser build loads the schemas beside the first screen, not in it (decisions 023, 031).
  return (await check.parseAsync(body)) as RouteResponse<R>;
}

/** Calls a route: its success answer parsed by the route's schema, any other status an ApiError. */
export async function callApi<R extends RouteDef>(def: R, ...input: InputArg<R>): Promise<RouteResponse<R>> {
  const check = successSchema(def);
  const res = await sendApi(def, ...input);
  if (!res.ok) throw await errorFrom(res);
  return readSuccess(def, res, check);
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}

/** The text to show for a failed call: the server's own words when there are any. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return 'Something went wrong. Check your connection and try again.';
}
