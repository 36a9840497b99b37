import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_TABLE, errorFromMetadata, fromGrpcError, invalidParameters, toGrpcError } from './index.js';

const asServiceError = (e: Partial<ServiceError>): ServiceError => Object.assign(new Error(e.details), e) as ServiceError;

describe('the error table', () => {
  it('maps every public code of the contract to its HTTP status', () => {
    const contract: Record<string, number> = {
      UNAUTHORIZED: 401,
      ENDPOINT_NOT_AVAILABLE: 403,
      INSUFFICIENT_SCOPE: 403,
      NO_ACTIVE_SUBSCRIPTION: 403,
      TIER_UPGRADE_REQUIRED: 403,
      WORKSPACE_FORBIDDEN: 403,
      NOT_FOUND: 404,
      INVALID_PARAMETERS: 422,
      API_KEY_LIMIT_REACHED: 422,
      PLAN_LIMIT_REACHED: 422,
      INVALID_STATE: 422,
      GENERATION_FAILED: 422,
      quota_exceeded: 422,
      RATE_LIMIT_EXCEEDED: 429,
      DAILY_LIMIT_EXCEEDED: 429,
    };
    for (const [code, http] of Object.entries(contract)) expect(ERROR_TABLE[code as keyof typeof ERROR_TABLE].http, code).toBe(http);
  });

  it('renders the envelope with details and retry_after only when present', () => {
    expect(new AppError('NOT_FOUND', 'Post 1 not found').toEnvelope()).toEqual({ error: { message: 'Post 1 not found', code: 'NOT_FOUND' } });
    expect(new AppError('RATE_LIMIT_EXCEEDED', 'slow down', { retryAfter: 12 }).toEnvelope()).toEqual({
      error: { message: 'slow down', code: 'RATE_LIMIT_EXCEEDED', retry_after: 12 },
    });
    expect(invalidParameters(['a: bad']).toEnvelope().error).toEqual({
      message: 'Request parameters failed validation: a: bad',
      code: 'INVALID_PARAMETERS',
      details: ['a: bad'],
    });
  });
});

describe('across gRPC', () => {
  it('round-trips code, message, details and retry_after through status and metadata', () => {
    const original = new AppError('INVALID_PARAMETERS', 'bad', { details: ['x: é unicode', 'y: two'], retryAfter: 3 });
    const wire = toGrpcError(original);
    expect(wire.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    const back = fromGrpcError(asServiceError(wire));
    expect(back).toBeInstanceOf(AppError);
    expect([back.code, back.message, back.details, back.retryAfter]).toEqual(['INVALID_PARAMETERS', 'bad', ['x: é unicode', 'y: two'], 3]);
  });

  it('carries the whole error in metadata alone (response headers sent before a status that may be lost)', () => {
    const sent = new AppError('INVALID_PARAMETERS', 'content_type: declared image/png but the bytes are image/jpeg …', {
      details: ['content_type: declared image/png but the bytes are image/jpeg'],
    });
    const read = errorFromMetadata(toGrpcError(sent).metadata);
    expect(read?.toEnvelope()).toEqual(sent.toEnvelope());
    expect(errorFromMetadata(undefined)).toBeUndefined();
    // A status lost to a reset: an INTERNAL error with no metadata is all grpc-js reports.
    expect(fromGrpcError(asServiceError({ code: GrpcStatus.INTERNAL, details: 'Received RST_STREAM with code 0' })).code).toBe('INTERNAL_ERROR');
  });

  it('hides unexpected errors behind INTERNAL_ERROR', () => {
    const wire = toGrpcError(new TypeError('secret internals'));
    expect(wire.code).toBe(GrpcStatus.INTERNAL);
    expect(wire.details).toBe('Internal error');
    expect(fromGrpcError(asServiceError(wire)).code).toBe('INTERNAL_ERROR');
  });

  it('turns an unreachable or slow backend into SERVICE_UNAVAILABLE', () => {
    for (const code of [GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED]) {
      const err = fromGrpcError(asServiceError({ code, details: 'x', metadata: undefined as never }));
      expect(err.code).toBe('SERVICE_UNAVAILABLE');
      expect(err.httpStatus).toBe(503);
    }
  });
});
