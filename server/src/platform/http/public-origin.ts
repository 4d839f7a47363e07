import type { FastifyReply, FastifyRequest } from 'fastify';

/** A Host header as browsers send it: a name or address, and a port. Anything else is not used. */
const HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/;

/**
 * The app's origin for the absolute links a calendar or a link preview needs: PUBLIC_ORIGIN when
 * it is set; else as the client reached it (scheme and Host; behind a trusted proxy, its
 * X-Forwarded-Proto and X-Forwarded-Host). Such answers are cached publicly, so a derived origin
 * makes them vary by the headers it came from: a cache in front must not hand one client's forged
 * Host to everyone. A malformed Host falls back to localhost rather than being written into a page.
 */
export function publicOrigin(request: FastifyRequest, reply: FastifyReply, configured?: string): string {
  if (configured) return configured;
  reply.header('vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
  const host = HOST.test(request.host) ? request.host : 'localhost';
  return `${request.protocol === 'https' ? 'https' : 'http'}://${host}`;
}
