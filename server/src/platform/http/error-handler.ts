import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { accountMessages } from '@hunch/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { acceptedBodyTypes } from './body-types';
import { HttpError } from './http-error';
import { routeEntryOf } from './register-route';

/** Fastify's own client-error codes, re-worded for people. */
const friendly: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large',
  FST_REQ_FILE_TOO_LARGE: 'The image is too large (5 MB at most)',
  FST_FILES_LIMIT: 'Send one image at most',
  FST_FIELDS_LIMIT: 'Too many form fields',
  FST_PARTS_LIMIT: 'Too many form parts',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Expected a multipart form',
  FST_CSRF_INVALID_TOKEN: accountMessages.csrfRefused,
  FST_CSRF_MISSING_SECRET: accountMessages.csrfRefused,
};

/** Every error leaves as text/plain: a 4xx with a clear sentence, or a bare 500 that is logged. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error instanceof HttpError || (status >= 400 && status < 500)) {
      const code = 'code' in error ? error.code : undefined;
      // A body of a type nothing reads: the answer names what the route does read.
      const text =
        code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? acceptedBodyTypes(routeEntryOf(request)?.bodyKind)
          : (code && friendly[code]) || error.message || 'Bad request';
      return reply.code(status).type('text/plain; charset=utf-8').send(text);
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .type('text/plain; charset=utf-8')
      .send('Something went wrong on our side. Please try again.');
  });
}

/** Node's refusals before a request reaches Fastify (a slow client, oversized headers), in words. */
const clientErrors: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large'],
};

/**
 * Fastify's `clientErrorHandler`: answers as the app does (text/plain, a sentence), not with
 * Fastify's JSON, then closes the connection. Nothing is written once an answer has begun.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text] = clientErrors[error.code ?? ''] ?? [400, 'The request could not be read'];
  // Node's own check: the answer in progress on this connection, if any, has not sent its headers.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
    const body = Buffer.from(text);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
