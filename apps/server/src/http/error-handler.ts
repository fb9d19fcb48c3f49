import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorBody } from '@gradewise/shared/errors';
import { AppError, badRequest, notFound, payloadTooLarge } from '../lib/errors.ts';

/**
 * The one place errors become HTTP answers: always `{ message, code }`, the status that of the code
 * (`HTTP_STATUS_OF`); anything unexpected is a generic 500 whose details stay in the log with the request id.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(error, reply.getHeader('retry-after'));
    // Every 429 says when to try again, whoever refused (a limit of ours or the rate-limit plugin).
    if (body.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(body.retryAfterSeconds));
    if (status >= 500) {
      request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    } else {
      request.log.info({ code: body.code, status, reqId: request.id }, body.message);
    }
    void reply.status(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const { status, body } = toErrorResponse(notFound(`No route for ${request.method} ${request.url.split('?')[0]}.`));
    void reply.status(status).send(body);
  });
}

/** The wait a 429 names when its refusal did not say (never the case for ours, kept as a floor). */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/**
 * The answer for an error. `retryAfterHeader` is what the reply already carries (the rate-limit
 * plugin sets it before refusing), so a 429 always names its wait, in the body and the header.
 */
export function toErrorResponse(
  error: FastifyError | AppError | Error,
  retryAfterHeader?: unknown,
): { status: number; body: ErrorBody } {
  const known = error instanceof AppError ? error : fromFramework(error as FastifyError);
  const retryAfterSeconds =
    known.status === 429
      ? (known.retryAfterSeconds ?? secondsOf(retryAfterHeader) ?? DEFAULT_RETRY_AFTER_SECONDS)
      : undefined;
  return {
    status: known.status,
    body: {
      message: known.message,
      code: known.code,
      ...(known.issues ? { issues: known.issues } : {}),
      ...(known.conflict ? { conflict: known.conflict } : {}),
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    },
  };
}

function secondsOf(header: unknown): number | undefined {
  const seconds = Number(header);
  return header !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

/** Fastify's own failures (schema validation, body parsing, upload limits) in our words and codes. */
function fromFramework(fastifyError: FastifyError): AppError {
  if (Array.isArray(fastifyError.validation)) {
    const issues = fastifyError.validation.map((item) => ({
      path: (item.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.'),
      message: item.message ?? 'is invalid',
    }));
    const first = issues[0];
    const message = first ? describeIssue(first.path, first.message) : 'The request is invalid.';
    return new AppError('VALIDATION_FAILED', message, issues);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'This content type is not accepted here.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return payloadTooLarge('The upload is too large.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return badRequest('Please send this form as multipart/form-data.');
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (status === 429) return new AppError('RATE_LIMITED', 'Too many attempts. Please wait a minute and try again.');
  // Any other client error the framework raises is the caller's malformed request.
  if (typeof status === 'number' && status >= 400 && status < 500)
    return badRequest(fastifyError.message || 'The request is invalid.');
  return new AppError('INTERNAL', 'Something went wrong on our side. Please try again.');
}

function describeIssue(path: string, message: string): string {
  // Our schemas carry sentence messages ("Email is required."); keep them as they are.
  if (/[.!?]$/.test(message) && /^[A-Z]/.test(message)) return message;
  return path ? `${path}: ${message}` : message;
}
