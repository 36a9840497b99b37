import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';

/**
 * The one table of public error codes: each code's HTTP status and gRPC status.
 * Services throw AppError with a code; the gRPC boundary and the gateway map it from here.
 */
export const ERROR_TABLE = {
  BAD_REQUEST: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  UNAUTHORIZED: { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  ENDPOINT_NOT_AVAILABLE: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  INSUFFICIENT_SCOPE: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  NO_ACTIVE_SUBSCRIPTION: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  TIER_UPGRADE_REQUIRED: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  WORKSPACE_FORBIDDEN: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  // A resource (a Tumblr media file) exists but belongs to another workspace: the contract's 403 for a file not the caller's.
  MEDIA_NOT_OWNED: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  NOT_FOUND: { http: 404, grpc: GrpcStatus.NOT_FOUND },
  REQUEST_TIMEOUT: { http: 408, grpc: GrpcStatus.DEADLINE_EXCEEDED },
  PAYLOAD_TOO_LARGE: { http: 413, grpc: GrpcStatus.INVALID_ARGUMENT },
  INVALID_PARAMETERS: { http: 422, grpc: GrpcStatus.INVALID_ARGUMENT },
  API_KEY_LIMIT_REACHED: { http: 422, grpc: GrpcStatus.FAILED_PRECONDITION },
  PLAN_LIMIT_REACHED: { http: 422, grpc: GrpcStatus.FAILED_PRECONDITION },
  INVALID_STATE: { http: 422, grpc: GrpcStatus.FAILED_PRECONDITION },
  GENERATION_FAILED: { http: 422, grpc: GrpcStatus.FAILED_PRECONDITION },
  quota_exceeded: { http: 422, grpc: GrpcStatus.RESOURCE_EXHAUSTED },
  // The platform's API offers no way to do this (e.g. Instagram has no audio search): documented per route.
  PLATFORM_UNSUPPORTED: { http: 422, grpc: GrpcStatus.FAILED_PRECONDITION },
  REQUEST_HEADERS_TOO_LARGE: { http: 431, grpc: GrpcStatus.INVALID_ARGUMENT },
  RATE_LIMIT_EXCEEDED: { http: 429, grpc: GrpcStatus.RESOURCE_EXHAUSTED },
  DAILY_LIMIT_EXCEEDED: { http: 429, grpc: GrpcStatus.RESOURCE_EXHAUSTED },
  INTERNAL_ERROR: { http: 500, grpc: GrpcStatus.INTERNAL },
  SERVICE_UNAVAILABLE: { http: 503, grpc: GrpcStatus.UNAVAILABLE },
  /** Dashboard: a change without the session's CSRF token, or from another origin. */
  CSRF_REJECTED: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

export interface AppErrorOptions {
  details?: string[];
  retryAfter?: number;
  cause?: unknown;
}

/** The one error type of the system: a public code, a message fit for API users, optional details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: string[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }

  get httpStatus(): number {
    return ERROR_TABLE[this.code].http;
  }

  /** The public JSON envelope. */
  toEnvelope(): { error: { message: string; code: string; details?: string[]; retry_after?: number } } {
    return {
      error: {
        message: this.message,
        code: this.code,
        ...(this.details?.length ? { details: this.details } : {}),
        ...(this.retryAfter !== undefined ? { retry_after: this.retryAfter } : {}),
      },
    };
  }
}

export const invalidParameters = (details: string[], message = 'Request parameters failed validation'): AppError =>
  new AppError('INVALID_PARAMETERS', details.length === 1 ? `${message}: ${details[0]}` : message, { details });

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);

const META_CODE = 'x-error-code';
const META_DETAILS = 'x-error-details-bin';
const META_RETRY = 'x-error-retry-after';
const META_MESSAGE = 'x-error-message-bin';

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_TABLE, value);
}

/** Turns any thrown value into a gRPC error carrying the public code in metadata. */
export function toGrpcError(err: unknown): Partial<ServiceError> {
  const appError = err instanceof AppError ? err : new AppError('INTERNAL_ERROR', 'Internal error');
  const metadata = new Metadata();
  metadata.set(META_CODE, appError.code);
  if (appError.details?.length) metadata.set(META_DETAILS, Buffer.from(JSON.stringify(appError.details)));
  if (appError.retryAfter !== undefined) metadata.set(META_RETRY, String(appError.retryAfter));
  // The message also travels in metadata, so that the error can be read from response headers alone.
  metadata.set(META_MESSAGE, Buffer.from(appError.message));
  return { code: ERROR_TABLE[appError.code].grpc, details: appError.message, metadata };
}

/**
 * The AppError that metadata written by toGrpcError carries, or undefined when it carries none. A server
 * may send it as response headers before its status (see libs/grpc client streaming), where it still
 * arrives when the status itself is lost to a stream reset.
 */
export function errorFromMetadata(metadata: Metadata | undefined, message?: string): AppError | undefined {
  const code = metadata?.get(META_CODE)[0];
  if (!metadata || !isErrorCode(code)) return undefined;
  const rawDetails = metadata.get(META_DETAILS)[0];
  const rawRetry = metadata.get(META_RETRY)[0];
  const rawMessage = metadata.get(META_MESSAGE)[0];
  return new AppError(code, message || (rawMessage instanceof Buffer ? rawMessage.toString('utf8') : code), {
    ...(rawDetails instanceof Buffer ? { details: JSON.parse(rawDetails.toString('utf8')) as string[] } : {}),
    ...(typeof rawRetry === 'string' ? { retryAfter: Number(rawRetry) } : {}),
  });
}

/** Turns a gRPC client error back into an AppError (the reverse of toGrpcError). */
export function fromGrpcError(err: ServiceError): AppError {
  const carried = errorFromMetadata(err.metadata, err.details);
  if (carried) return carried;
  if (err.code === GrpcStatus.UNAVAILABLE || err.code === GrpcStatus.DEADLINE_EXCEEDED) {
    return new AppError('SERVICE_UNAVAILABLE', 'A backend service is unavailable; retry shortly', { cause: err });
  }
  return new AppError('INTERNAL_ERROR', 'Internal error', { cause: err });
}
