import {
  accountMessages,
  type GameClientToServer,
  type GameServerToClient,
  gameNamespace,
  type HttpRoutes,
  httpRoutes,
  type RouteDef,
  type RouteName,
  type RouteResponse,
  routeUrl,
  SOCKET_RECONNECT_MAX_MS,
  SOCKET_RECONNECT_MIN_MS,
  SOCKET_TIMEOUT_MS,
  successStatus,
} from '@hunch/contract';
import { io, type Socket } from 'socket.io-client';
import type { SoakTally } from './soak-report';

// One simulated user's connection to the server: a cookie jar, the CSRF token, its own
// X-Forwarded-For address, every call through the contract's route table and timed.

/** A request that has not answered in this long counts as an error (a user would have given up). */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** Sent as multipart form data, as the web app sends its forms. */
  form?: Record<string, string>;
}

/** A call's outcome: the parsed success answer, or only the status (0: no answer at all). */
export interface CallResult<T> {
  status: number;
  body?: T;
}

export type LiveSocket = Socket<GameServerToClient, GameClientToServer>;

/** Why a fetch failed, briefly: 'timeout', 'ECONNRESET', ... */
function networkProblem(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError')
    return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause =
    err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

export class SoakHttp {
  private readonly jar = new Map<string, string>();
  private token: string | undefined;

  constructor(
    readonly base: string,
    readonly address: string,
    private readonly tally: SoakTally,
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** A login or a sign-up renewed the CSRF secret: the token is fetched anew, as the web does. */
  sessionChanged(): void {
    this.token = undefined;
  }

  /**
   * Calls route `name`. Its success status is fine, and so is any status in `alsoFine` (a 404
   * participation means "not entered"); anything else, or no answer, is recorded as an error.
   */
  async call<N extends RouteName>(
    name: N,
    input: CallInput = {},
    alsoFine: readonly number[] = [],
  ): Promise<CallResult<RouteResponse<HttpRoutes[N]>>> {
    const def: RouteDef = httpRoutes[name];
    const res = await this.send(name, def, input, true);
    if (!res) return { status: 0 };
    const { status, text, type } = res;
    if (status === successStatus(def)) {
      // The answer's schema is the contract's; the soak measures load, so it does not re-check it.
      const body = (type.includes('json') ? JSON.parse(text) : text) as RouteResponse<HttpRoutes[N]>;
      return { status, body };
    }
    if (!alsoFine.includes(status)) {
      const path = routeUrl(def, input.params, input.query as Record<string, string | undefined>);
      this.tally.error(`${name} → ${status}`, `${def.method} ${path}: ${text.slice(0, 160).trim()}`);
    }
    return { status };
  }

  private async send(
    name: string,
    def: RouteDef,
    input: CallInput,
    retryCsrf: boolean,
  ): Promise<{ status: number; text: string; type: string } | undefined> {
    const url = `${this.base}${routeUrl(def, input.params, input.query as Record<string, string | undefined>)}`;
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain',
      'x-forwarded-for': this.address,
    };
    let body: string | FormData | undefined;
    if (def.method !== 'GET') {
      const token = await this.csrf();
      if (token === undefined) return undefined;
      headers['x-csrf-token'] = token;
      // What a browser sends with a same-origin write.
      headers.origin = this.base;
    }
    if (input.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.json);
    } else if (input.form) {
      const form = new FormData();
      for (const [k, v] of Object.entries(input.form)) form.append(k, v);
      body = form;
    }
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const t0 = performance.now();
    try {
      const res = await fetch(url, {
        method: def.method,
        headers,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      this.tally.record(name, performance.now() - t0);
      this.keepCookies(res);
      // As the web client does: a refused token is fetched anew and the write sent once more.
      if (res.status === 403 && retryCsrf && text === accountMessages.csrfRefused) {
        this.tally.note('CSRF token refused, fetched anew');
        this.token = undefined;
        return this.send(name, def, input, false);
      }
      return { status: res.status, text, type: res.headers.get('content-type') ?? '' };
    } catch (err) {
      this.tally.error(`${name}: ${networkProblem(err)}`, `${def.method} ${url.slice(this.base.length)}`);
      return undefined;
    }
  }

  private async csrf(): Promise<string | undefined> {
    if (this.token === undefined) {
      const { body } = await this.call('csrf');
      this.token = body?.token;
    }
    return this.token;
  }

  private keepCookies(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      // A cleared cookie comes back empty (and already expired).
      if (value === '' || /max-age=0/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** The live game's socket, with the session cookie and address, and the web app's transport defaults. */
  openLive(gameId: string, subcommunity: string | null): LiveSocket {
    return io(`${this.base}${gameNamespace(gameId)}`, {
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: SOCKET_RECONNECT_MIN_MS,
      reconnectionDelayMax: SOCKET_RECONNECT_MAX_MS,
      timeout: SOCKET_TIMEOUT_MS,
      query: subcommunity ? { subcommunity } : {},
      extraHeaders: { cookie: this.cookieHeader(), 'x-forwarded-for': this.address, origin: this.base },
    });
  }
}
