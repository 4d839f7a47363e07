import type { FastifyRequest } from 'fastify';
import { HttpError } from './http/http-error';

/**
 * Who may call: registerRoute applies these from a route's `access`, before parsing its input.
 * The host and admin guards come with hosting, which adds the roles they read.
 */
export function requireUser(request: FastifyRequest): number {
  if (request.userId == null) throw new HttpError(401, 'Please log in first');
  return request.userId;
}
