import type { FastifyRequest } from 'fastify';

/** A Host header as browsers send it: a name or address, and a port. Anything else is not used. */
const HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/;

/**
 * The app's origin as the client reached it (scheme and Host; behind a trusted proxy, its
 * X-Forwarded-Proto), for the absolute links a calendar or a link preview needs. A malformed Host
 * falls back to localhost rather than being written into a page.
 */
export function publicOrigin(request: FastifyRequest): string {
  const host = HOST.test(request.host) ? request.host : 'localhost';
  return `${request.protocol === 'https' ? 'https' : 'http'}://${host}`;
}
