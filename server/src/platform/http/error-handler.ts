import { accountMessages } from '@hunch/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './http-error';

/** Fastify's own client-error codes, re-worded for people. */
const friendly: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
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
      const text = (code && friendly[code]) || error.message || 'Bad request';
      return reply.code(status).type('text/plain; charset=utf-8').send(text);
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .type('text/plain; charset=utf-8')
      .send('Something went wrong on our side. Please try again.');
  });
}
