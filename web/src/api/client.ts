import { accountMessages } from '@hunch/contract';
/**
 * The one fetch client. Same-origin cookies carry the session; every state-changing call carries the
 * CSRF token from GET /api/csrf. Error answers are text/plain human messages, so an ApiError's message
 * is exactly what the server said and can be shown as is.
 */

/** Anything with a zod-like parse (every contract schema); keeps web from depending on zod itself. */
export interface Parser<T> {
  parse: (data: unknown) => T;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** A JSON body, a multipart/form body, or none. */
export type RequestBody = { json: unknown } | { form: FormData } | undefined;

let csrfToken: Promise<string> | null = null;

function isTokenAnswer(value: unknown): value is { token: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { token?: unknown }).token === 'string'
  );
}

async function fetchCsrfToken(): Promise<string> {
  const res = await fetch('/api/csrf', {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw new ApiError(res.status, (await res.text()) || res.statusText);
  const body: unknown = await res.json();
  if (!isTokenAnswer(body)) throw new ApiError(500, 'Unexpected answer from the server.');
  return body.token;
}

function csrf(): Promise<string> {
  csrfToken ??= fetchCsrfToken().catch((err: unknown) => {
    // A failed fetch must not be cached, or every later write would fail too.
    csrfToken = null;
    throw err;
  });
  return csrfToken;
}

/** The session changes on login, register and logout; the token may be bound to it, so fetch anew. */
export function forgetCsrfToken(): void {
  csrfToken = null;
}

async function sendOnce(method: HttpMethod, path: string, body: RequestBody): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json, text/plain' };
  let payload: BodyInit | undefined;
  if (body && 'json' in body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) {
    // No content-type: the browser writes the multipart boundary itself.
    payload = body.form;
  }
  if (method !== 'GET') headers['x-csrf-token'] = await csrf();
  return fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
}

/**
 * Sends a request and returns the raw Response, whatever its status. A 403 on a write may mean a stale
 * CSRF token (the session rotated), so the token is fetched again and the request retried once.
 */
export async function send(method: HttpMethod, path: string, body?: RequestBody): Promise<Response> {
  const res = await sendOnce(method, path, body);
  if (res.status !== 403 || method === 'GET') return res;
  // Only a refused security token is worth a retry; other 403s (too young, game closed) are final.
  if ((await res.clone().text()) !== accountMessages.csrfRefused) return res;
  forgetCsrfToken();
  return sendOnce(method, path, body);
}

/** Turns a non-2xx answer into an ApiError carrying the server's text. */
export async function errorFrom(res: Response): Promise<ApiError> {
  const text = (await res.text()).trim();
  return new ApiError(res.status, text || res.statusText || `Request failed (${res.status})`);
}

/** A call whose success answer is JSON of a known contract shape. */
export async function apiJson<T>(
  method: HttpMethod,
  path: string,
  schema: Parser<T>,
  body?: RequestBody,
): Promise<T> {
  const res = await send(method, path, body);
  if (!res.ok) throw await errorFrom(res);
  return schema.parse(await res.json());
}

/** A call whose success answer carries nothing the app needs. */
export async function apiVoid(method: HttpMethod, path: string, body?: RequestBody): Promise<void> {
  const res = await send(method, path, body);
  if (!res.ok) throw await errorFrom(res);
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}

/** The text to show for a failed call: the server's own words when there are any. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return 'Something went wrong. Check your connection and try again.';
}
