import { ERROR_TABLE, type ErrorCode } from '@spa/errors';
import type { Route } from '../routes/route.js';

/** What each public code means, as the responses of the document state it. */
const MEANING: Record<ErrorCode, string> = {
  BAD_REQUEST: 'the HTTP request itself is malformed (answered before routing)',
  UNAUTHORIZED: 'missing, invalid or revoked token, or a free-plan workspace',
  ENDPOINT_NOT_AVAILABLE: 'this endpoint is not reachable with this kind of token',
  INSUFFICIENT_SCOPE: 'the token lacks the scope this endpoint needs (the message names it)',
  NO_ACTIVE_SUBSCRIPTION: 'the workspace has no active or trialing paid subscription',
  TIER_UPGRADE_REQUIRED: 'the action needs a higher plan',
  WORKSPACE_FORBIDDEN: "the token's creator no longer belongs to its workspace, or the resource belongs to another workspace",
  MEDIA_NOT_OWNED: 'the media file belongs to another workspace',
  CSRF_REJECTED: 'dashboard only: a change without the session CSRF token or from another origin',
  NOT_FOUND: 'no such resource in this workspace',
  REQUEST_TIMEOUT: 'the request was not received in time (answered before routing)',
  PAYLOAD_TOO_LARGE: 'the body is larger than this endpoint accepts',
  INVALID_PARAMETERS: 'request parameters failed validation; `details` has one entry per problem, naming the field',
  API_KEY_LIMIT_REACHED: 'the workspace already has an active key',
  PLAN_LIMIT_REACHED: 'the plan limit of this resource is reached',
  INVALID_STATE: 'the resource is not in a state the action applies to',
  GENERATION_FAILED: 'AI generation could not produce content',
  PLATFORM_UNSUPPORTED: "the platform's API offers no way to do this (documented per route)",
  quota_exceeded: 'the monthly Quote Week run quota is exhausted',
  REQUEST_HEADERS_TOO_LARGE: 'the request line and headers exceed the server limit (answered before routing)',
  RATE_LIMIT_EXCEEDED: 'a rate limit was exceeded; `retry_after` and the `Retry-After` header say when to retry',
  DAILY_LIMIT_EXCEEDED: "the plan's daily AI-generation quota is exhausted",
  INTERNAL_ERROR: 'an unexpected error; the message quotes the request id',
  SERVICE_UNAVAILABLE: 'a backend is unavailable for a moment; retry after `Retry-After` seconds when sent',
};

const CODE_NAMES = Object.keys(ERROR_TABLE) as ErrorCode[];
const MENTIONED = new RegExp(`\\b(${CODE_NAMES.join('|')})\\b`, 'g');

/**
 * Every error code an operation can answer, derived from what its route declares: its audience, scope,
 * plan and bucket, whether it has path parameters, a query or a body, the codes it lists in `errors`,
 * and any code its description names.
 */
export function errorCodesOf(route: Route, hasPathParams: boolean): ErrorCode[] {
  const codes = new Set<ErrorCode>(['UNAUTHORIZED', 'ENDPOINT_NOT_AVAILABLE']);
  if (route.audience !== 'dashboard') {
    if (route.audience === 'api_key') codes.add('WORKSPACE_FORBIDDEN');
    if (route.scope) codes.add('INSUFFICIENT_SCOPE');
    if (route.plan !== 'any') codes.add('NO_ACTIVE_SUBSCRIPTION');
    if (route.plan === 'pro_team') codes.add('TIER_UPGRADE_REQUIRED');
    if (hasPathParams) codes.add('NOT_FOUND');
    if (route.body) codes.add('PAYLOAD_TOO_LARGE');
    if (route.body || route.query || route.params || hasPathParams) codes.add('INVALID_PARAMETERS');
    for (const code of route.errors ?? []) codes.add(code);
    for (const m of `${route.description ?? ''} ${route.summary}`.matchAll(MENTIONED)) codes.add(m[1] as ErrorCode);
    codes.add('SERVICE_UNAVAILABLE');
  }
  codes.add('RATE_LIMIT_EXCEEDED');
  codes.add('INTERNAL_ERROR');
  return CODE_NAMES.filter((c) => codes.has(c));
}

export function meaningOf(code: ErrorCode): string {
  return MEANING[code];
}

/** An example envelope of a code, as the gateway renders it. */
export function errorExample(code: ErrorCode): object {
  const first = MEANING[code].split(';')[0] ?? code;
  const message = first.charAt(0).toUpperCase() + first.slice(1);
  return {
    error: {
      message,
      code,
      ...(code === 'INVALID_PARAMETERS' ? { details: ['limit: Too big: expected number to be <=200'] } : {}),
      ...(code === 'RATE_LIMIT_EXCEEDED' || code === 'DAILY_LIMIT_EXCEEDED' ? { retry_after: 42 } : {}),
    },
  };
}
