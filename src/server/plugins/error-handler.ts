import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-errors.js';

/**
 * Every API error is `{ "message": "..." }` with the right status (spec 7): the client shows
 * `status: body`. A 500 never carries a stack trace or internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      return reply.code(400).send({ message: first?.message ?? 'Invalid request.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ message: clientErrorMessage(error, status) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Server error. Please try again later.' });
  });
}

function clientErrorMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is empty.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Request body is not valid JSON.';
    default:
      return status === 429 ? 'Too many requests. Please slow down and try again shortly.' : error.message;
  }
}
