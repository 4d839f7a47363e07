import type { IncomingMessage } from 'node:http';
import type { Socket as TcpSocket } from 'node:net';
import { compactEvents } from './compact-events';

// What engine.io keeps of a connection's opening for as long as it lasts, and nobody reads after
// it: the whole HTTP upgrade request (`conn.request`: the IncomingMessage with its stream state,
// raw headers and listeners), a listener on the websocket for errors "before the upgrade", and a
// stand-in HTTP response for middlewares with a listener on the TCP stream that keeps it alive.
// ~1 KB of heap a player (decision 029). Each is let go as the connection opens; socket.io reads
// the request again only to build a handshake when the client opens another namespace on the same
// connection (/data beside /game/{uuid}), so the request is replaced with what that reads, and
// of its headers those the server reads (the session cookie; the origin, which socket.io notes).
// The connection's listener tables are compacted (compact-events.ts).

/** What socket.io's handshake (`buildHandshake`) and the namespaces' middleware read of `conn.request`. */
export interface KeptRequest {
  headers: Pick<IncomingMessage['headers'], 'cookie' | 'origin'>;
  url: string | undefined;
  _query: Record<string, string>;
  /** socket.io reads `connection.encrypted` for `handshake.secure`. */
  connection: { encrypted: boolean };
}

const PLAIN = Object.freeze({ encrypted: false });
const ENCRYPTED = Object.freeze({ encrypted: true });

/** engine.io's connection as it opens, with the parts let go here. */
interface OpeningConn {
  request: (IncomingMessage & { _query?: Record<string, string> }) | KeptRequest | null | undefined;
  transport: OpeningTransport;
  /** The transport's listener removers: one pushed, which left room for 16. */
  cleanupFn?: unknown;
}

/** engine.io's transport: the websocket one never emits 'headers' (only polling answers HTTP requests). */
interface OpeningTransport {
  name: string;
  socket?: OpeningWs;
  removeAllListeners(event: 'headers'): unknown;
}

interface OpeningWs {
  _socket?: (TcpSocket & { _peername?: unknown }) | null;
  /** ws's negotiated extensions, shared with its reader and writer: none here (no compression). */
  _extensions?: unknown;
  _receiver?: { _extensions?: unknown } | null;
  _sender?: { _extensions?: unknown } | null;
  rawListeners(event: 'error'): ((...args: unknown[]) => void)[];
  removeListener(event: 'error', listener: (...args: unknown[]) => void): unknown;
}

type Listener = ((...args: unknown[]) => void) & { listener?: (...args: unknown[]) => void };

/** The source of engine.io's listener that re-emits the stream's close on its stand-in response. */
const RESPONSE_CLOSE = '() => this.emit("close")';

/**
 * Lets go of what engine.io keeps of a connection's opening (see above). For engine.io's
 * 'connection' event: one function for every connection. Anything not as expected is left alone.
 */
export function dropConnectionLeftovers(conn: OpeningConn): void {
  const request = conn.request;
  if (request && !isKept(request)) {
    const encrypted = Boolean((request.socket as (TcpSocket & { encrypted?: boolean }) | null)?.encrypted);
    const { cookie, origin } = request.headers;
    const headers: KeptRequest['headers'] = {};
    if (cookie !== undefined) headers.cookie = cookie;
    if (origin !== undefined) headers.origin = origin;
    const kept: KeptRequest = {
      headers,
      url: request.url === undefined ? undefined : sharedCopy(lastUrl, request.url),
      _query: sharedQuery(request._query ?? {}),
      connection: encrypted ? ENCRYPTED : PLAIN,
    };
    conn.request = kept;
  }
  if (Array.isArray(conn.cleanupFn)) conn.cleanupFn = conn.cleanupFn.slice();
  // engine.io emits 'close' once per connection (guarded by its state); its transport, 'close' and
  // 'error' once (each closes the connection, which removes the listeners); ws, 'close' once.
  compactEvents(conn, ['close']);
  const transport = conn.transport;
  const ws = transport.name === 'websocket' ? transport.socket : undefined;
  if (!ws) return;
  // engine.io's listener for response headers of a handshake: a websocket transport has none.
  transport.removeAllListeners('headers');
  compactEvents(transport, ['close', 'error']);
  // engine.io's transport listens for errors too, so ws never meets an error without a listener.
  const errors = ws.rawListeners('error') as Listener[];
  const early = errors.find((f) => f.name === 'onUpgradeError');
  if (early && errors.length > 1) ws.removeListener('error', early);
  compactEvents(ws, ['close']);
  shareNoExtensions(ws);
  const tcp = ws._socket;
  if (!tcp) return;
  // Node's cache of the peer's address, made when engine.io read it (engine.io keeps its own copy
  // of the address); Node makes it again if asked while the stream is open. ~56 bytes.
  if (typeof tcp._peername === 'object' && tcp._peername !== null) tcp._peername = null;
  for (const f of tcp.rawListeners('close') as Listener[])
    if (f.listener && f.listener.name === '' && f.listener.toString() === RESPONSE_CLOSE)
      tcp.removeListener('close', f);
}

/** ws's extensions when none was negotiated: one frozen empty object for every connection. */
const NO_EXTENSIONS = Object.freeze({});

/**
 * ws gives each connection an object of the extensions it negotiated, which its reader and writer
 * share and only read (~56 bytes); with compression off it stays empty, and one empty object serves
 * them all.
 */
function shareNoExtensions(ws: OpeningWs): void {
  const own = ws._extensions;
  if (own === NO_EXTENSIONS || typeof own !== 'object' || own === null) return;
  if (Object.getPrototypeOf(own) !== Object.prototype || Reflect.ownKeys(own).length > 0) return;
  const { _receiver: receiver, _sender: sender } = ws;
  if (!receiver || !sender || receiver._extensions !== own || sender._extensions !== own) return;
  ws._extensions = NO_EXTENSIONS;
  receiver._extensions = NO_EXTENSIONS;
  sender._extensions = NO_EXTENSIONS;
}

/**
 * The query of a connection's URL (`EIO`, `transport` and the client's own parameters): equal for
 * most connections, so one that equals the last seen takes its place (socket.io's handshake and the
 * middleware only read it). ~56 bytes a player.
 */
function sharedQuery(query: Record<string, string>): Record<string, string> {
  const last = lastQuery;
  if (last && sameQuery(last, query)) return last;
  lastQuery = query;
  return query;
}
let lastQuery: Record<string, string> | undefined;

function sameQuery(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b))
    return false;
  for (const k of keys) if (!Object.hasOwn(b, k) || a[k] !== b[k]) return false;
  return true;
}

const isKept = (request: object): request is KeptRequest => !('socket' in request);

/**
 * One copy of a string that connections opened together repeat (the handshake's URL, its time to
 * the second): the last one seen is kept, and an equal one takes its place. ~0.14 KB a player.
 */
function sharedCopy(last: { value: string | undefined }, value: string): string {
  if (value === last.value) return last.value;
  last.value = value;
  return value;
}
const lastUrl: { value: string | undefined } = { value: undefined };
const lastTime: { value: string | undefined } = { value: undefined };

/** A socket's handshake time shares its string with sockets that connected in the same second. */
export function shareHandshakeTime(socket: object): void {
  const handshake = (socket as { handshake?: { time?: unknown } }).handshake;
  if (typeof handshake?.time === 'string') handshake.time = sharedCopy(lastTime, handshake.time);
}
