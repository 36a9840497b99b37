import type { components } from './generated/openapi.js';

/** The error envelope every failed call answers: `{error:{message,code,details?,retry_after?}}`. */
export type ErrorEnvelope = components['schemas']['Error'];

/** A failed call, carrying the envelope's fields. Thrown by `unwrap` and by the helpers of this SDK. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, e.g. 422. */
  readonly status: number;
  /** The public code, e.g. INVALID_PARAMETERS, NOT_FOUND, RATE_LIMIT_EXCEEDED. */
  readonly code: string;
  /** One entry per problem on validation errors (each names its field). */
  readonly details: readonly string[];
  /** Seconds to wait, on 429 (and 503 when sent). */
  readonly retryAfter: number | undefined;
  /** The X-Request-Id of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(status: number, envelope: ErrorEnvelope | undefined, requestId?: string) {
    super(envelope?.error.message ?? `HTTP ${status} without an error envelope`);
    this.status = status;
    this.code = envelope?.error.code ?? 'UNKNOWN';
    this.details = envelope?.error.details ?? [];
    this.retryAfter = envelope?.error.retry_after;
    this.requestId = requestId;
  }
}

const isEnvelope = (v: unknown): v is ErrorEnvelope =>
  typeof v === 'object' && v !== null && typeof (v as ErrorEnvelope).error?.code === 'string' && typeof (v as ErrorEnvelope).error?.message === 'string';

/**
 * The data of an openapi-fetch result, or an ApiError thrown from its error:
 * `const { post } = await unwrap(api.GET('/posts/{id}', { params: { path: { id } } }))`.
 */
export async function unwrap<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (response.ok && error === undefined) return data as D;
  throw new ApiError(response.status, isEnvelope(error) ? error : undefined, response.headers.get('x-request-id') ?? undefined);
}
