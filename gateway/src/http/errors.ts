import { quotaRefusals } from '@spa/telemetry';
import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import type { ErrorRequestHandler, Response } from 'express';

/** Maps what body-parser throws (malformed JSON, oversized body, bad encoding) to AppError. */
function fromBodyParser(err: { type?: string; message?: string; limit?: number; status?: unknown }): AppError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError('INVALID_PARAMETERS', `Request body is not valid JSON: ${err.message ?? 'parse error'}`);
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than this endpoint accepts (${err.limit ?? 'its limit'} bytes)`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.aborted':
    case 'request.size.invalid':
      return new AppError('INVALID_PARAMETERS', `Request body could not be read: ${err.message ?? err.type}`);
    default:
      // A body that does not decode as its Content-Encoding says (gzip that is not gzip): the client's fault, as any 4xx it raises.
      return typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? new AppError('INVALID_PARAMETERS', `Request body could not be read: ${err.message ?? 'malformed'}`) : undefined;
  }
}

/** The router could not percent-decode a path segment (`/posts/%ZZ`): the path names no valid parameter. */
function fromRouter(err: unknown): AppError | undefined {
  if (!(err instanceof URIError)) return undefined;
  const segment = /param '(.*)'$/.exec(err.message)?.[1];
  return new AppError('INVALID_PARAMETERS', `path parameters: ${segment === undefined ? 'a segment' : JSON.stringify(segment.slice(0, 100))} is not valid percent-encoding`);
}

export function sendError(res: Response, err: AppError): void {
  if (err.retryAfter !== undefined) res.setHeader('Retry-After', String(err.retryAfter));
  res.status(err.httpStatus).json(err.toEnvelope());
}

/** Refusals operators watch: which quota or limit said no (closed set of labels). */
const QUOTA_OF: Partial<Record<string, string>> = {
  DAILY_LIMIT_EXCEEDED: 'daily_generation',
  quota_exceeded: 'quote_week_monthly',
  RATE_LIMIT_EXCEEDED: 'rate_limit',
  PLAN_LIMIT_REACHED: 'plan_limit',
};

/** The one place the gateway turns errors into the public envelope; anything unexpected is a logged 500. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const appError = err instanceof AppError ? err : (fromRouter(err) ?? fromBodyParser(err as { type?: string }));
    if (appError && appError.code !== 'INTERNAL_ERROR') {
      const quota = QUOTA_OF[appError.code];
      if (quota) quotaRefusals.inc({ quota });
      if (appError.code === 'SERVICE_UNAVAILABLE') logger.warn({ err: appError.cause ?? appError, path: req.path }, 'backend unavailable');
      sendError(res, appError);
      return;
    }
    logger.error({ err, method: req.method, path: req.path }, 'unhandled error');
    const requestId = res.getHeader('X-Request-Id');
    sendError(res, new AppError('INTERNAL_ERROR', `Internal error; quote request id ${String(requestId)} when reporting it`));
  };
}
