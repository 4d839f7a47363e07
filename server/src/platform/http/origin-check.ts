import type { IncomingMessage } from 'node:http';
import type { Config } from '../config';

export const FOREIGN_ORIGIN = 'Connections from another site are not allowed';

/**
 * The host the client addressed: behind a trusted proxy, the one it forwarded. Of several values
 * the last, as Fastify's `request.host` takes it: the nearest proxy appends the host it was
 * addressed at, and any value before it came from the client, which could name any host.
 */
function hostOf(request: IncomingMessage, trustProxy: boolean): string | undefined {
  const header = trustProxy ? request.headers['x-forwarded-host'] : undefined;
  const forwarded = Array.isArray(header) ? header.join(',') : header;
  if (!forwarded) return request.headers.host;
  return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
}

/** True when `origin` names the host the request came to (default ports as its scheme has them). */
function sameHost(origin: string, host: string | undefined): boolean {
  if (!host || !URL.canParse(origin)) return false;
  const o = new URL(origin);
  if (o.protocol !== 'http:' && o.protocol !== 'https:') return false;
  const h = `${o.protocol}//${host}`;
  return URL.canParse(h) && new URL(h).host === o.host;
}

/**
 * Who may open a socket, by the Origin of its handshake (decision 021): a page of the app itself
 * (the Host it was served from), or of an origin listed in ALLOWED_ORIGINS. Browsers always send
 * Origin with a WebSocket handshake and with cross-site requests, so a page on another site cannot
 * ride a player's cookie into a live game. A handshake without Origin comes from no browser page
 * (the demo's bots, the benchmark's players, scripts): it is let through, and must bring its own
 * session cookie, as any client does.
 */
export function originAllowed(
  request: IncomingMessage,
  config: Pick<Config, 'allowedOrigins' | 'trustProxy'>,
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return config.allowedOrigins.includes(origin) || sameHost(origin, hostOf(request, config.trustProxy));
}
