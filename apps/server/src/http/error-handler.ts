import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorBody } from '@gradewise/shared/errors';
import { AppError } from '../lib/errors.ts';

/**
 * The one place errors become HTTP answers: always `{ message, code }`. Known failures keep their
 * status; anything unexpected is a generic 500 whose details stay in the log with the request id.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(error);
    if (status >= 500) {
      request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    } else {
      request.log.info({ code: body.code, status, reqId: request.id }, body.message);
    }
    void reply.status(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .status(404)
      .send({ message: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'NOT_FOUND' });
  });
}

export function toErrorResponse(error: FastifyError | AppError | Error): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: {
        message: error.message,
        code: error.code,
        ...(error.issues ? { issues: error.issues } : {}),
        ...(error.conflict ? { conflict: error.conflict } : {}),
      },
    };
  }
  const fastifyError = error as FastifyError;
  if (Array.isArray(fastifyError.validation)) {
    const issues = fastifyError.validation.map((item) => ({
      path: (item.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.'),
      message: item.message ?? 'is invalid',
    }));
    const first = issues[0];
    const message = first ? describeIssue(first.path, first.message) : 'The request is invalid.';
    return { status: 400, body: { message, code: 'VALIDATION_FAILED', issues } };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { message: 'The request body is not valid JSON.', code: 'BAD_REQUEST' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { message: 'This content type is not accepted here.', code: 'BAD_REQUEST' } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, body: { message: 'The upload is too large.', code: 'PAYLOAD_TOO_LARGE' } };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 400, body: { message: 'Please send this form as multipart/form-data.', code: 'BAD_REQUEST' } };
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (status === 429) {
    return {
      status,
      body: { message: 'Too many attempts. Please wait a minute and try again.', code: 'RATE_LIMITED' },
    };
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { message: fastifyError.message || 'The request is invalid.', code: 'BAD_REQUEST' } };
  }
  return { status: 500, body: { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' } };
}

function describeIssue(path: string, message: string): string {
  // Our schemas carry sentence messages ("Email is required."); keep them as they are.
  if (/[.!?]$/.test(message) && /^[A-Z]/.test(message)) return message;
  return path ? `${path}: ${message}` : message;
}
