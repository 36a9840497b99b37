import { ERROR_TABLE } from '@spa/errors';
import { z } from 'zod';
import { BUCKETS, GLOBAL_LIMIT } from '../rate-limit/limits.js';
import type { Route } from '../routes/route.js';
import { ErrorEnvelopeSchema } from '../routes/schemas.js';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  return rest;
};

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed in the window of the most restrictive limiter that applied', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in that window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until that window resets (never a timestamp)', schema: { type: 'integer' } },
};

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry for 24 h: the same key with the same request replays the first answer (with `Idempotent-Replayed: true`); the same key with another request is 422; concurrent duplicates run once. Answers 429 and 5xx are not kept.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const errorResponse = (description: string) => ({
  description,
  headers: RATE_HEADERS,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operation(route: Route): JsonSchema {
  const rules: string[] = [];
  if (route.audience === 'dashboard') rules.push('Dashboard only: every API key and Site token gets 403 ENDPOINT_NOT_AVAILABLE.');
  if (route.audience === 'site_token') rules.push('Site Connection token only; an API key gets 403 ENDPOINT_NOT_AVAILABLE.');
  if (route.scope) rules.push(`Scope: \`${route.scope}\`.`);
  if (route.plan === 'paid') rules.push('Plan: a paid plan with an active or trialing subscription.');
  if (route.plan === 'pro_team') rules.push('Plan: Pro or Team.');
  if (route.bucket) {
    const b = BUCKETS[route.bucket];
    rules.push(`Rate limit: ${b.points} per ${b.durationSec} s per token (bucket \`${route.bucket}\`), besides the global ${GLOBAL_LIMIT.points}/min per IP.`);
  }
  const responses: JsonSchema = {
    [String(route.status)]: {
      description: 'Success',
      headers: RATE_HEADERS,
      ...(route.response ? { content: { 'application/json': { schema: toSchema(route.response, 'output') } } } : {}),
    },
    '401': errorResponse('UNAUTHORIZED: missing, invalid or revoked token, or a free-plan workspace'),
    '403': errorResponse('ENDPOINT_NOT_AVAILABLE, INSUFFICIENT_SCOPE, NO_ACTIVE_SUBSCRIPTION, TIER_UPGRADE_REQUIRED or WORKSPACE_FORBIDDEN'),
    '429': errorResponse('RATE_LIMIT_EXCEEDED, with retry_after and a Retry-After header'),
  };
  if (route.params) responses['404'] = errorResponse('NOT_FOUND: no such resource in this workspace');
  if (route.body || route.query || route.params) responses['422'] = errorResponse('INVALID_PARAMETERS (one detail per problem) or INVALID_STATE');
  if (route.body) responses['413'] = errorResponse('PAYLOAD_TOO_LARGE');
  return {
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/\/(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    description: [route.description, ...rules].filter(Boolean).join('\n\n'),
    tags: [route.tag],
    parameters: [
      ...parameters(route.params, 'path'),
      ...parameters(route.query, 'query'),
      ...(route.method === 'post' && route.audience !== 'dashboard' ? [IDEMPOTENCY_HEADER] : []),
    ],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.body, 'input') } } } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the route table and its zod schemas. */
export function buildOpenApi(routes: readonly Route[]): object {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operation(route);
  const codes = Object.entries(ERROR_TABLE).map(([code, m]) => `| ${code} | ${m.http} |`).join('\n');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Social Publishing and AI Content API',
      version: '2.12.0',
      description: [
        'Schedule and publish posts to 15 social platforms. Authenticate with `Authorization: Bearer <API_KEY>`.',
        'Every error uses the envelope `{error:{message,code,details?,retry_after?}}`. Malformed JSON is 422 INVALID_PARAMETERS; a body over the route limit is 413 PAYLOAD_TOO_LARGE; an unknown path is 404 NOT_FOUND.',
        `Every /api/v1 response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset describing the most restrictive limiter that applied (the global limit is ${GLOBAL_LIMIT.points} requests per minute per IP).`,
        'Resources are returned with every field present; a field with no value is `null`.',
        `| code | HTTP |\n|---|---|\n${codes}`,
      ].join('\n\n'),
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Personal API key (sk_live_…) or, for Site Push, a Site Connection token (st_live_…)' } },
      schemas: { Error: toSchema(ErrorEnvelopeSchema, 'output') },
    },
    paths,
  };
}
