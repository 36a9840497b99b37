import { ERROR_TABLE, type ErrorCode } from '@spa/errors';
import { BUCKETS, GLOBAL_LIMIT } from '../rate-limit/limits.js';
import type { Route } from '../routes/route.js';
import { ErrorEnvelopeSchema } from '../routes/schemas.js';
import { errorCodesOf, errorExample, meaningOf } from './errors.js';
import { ComponentSchemas, type JsonSchema } from './json-schema.js';
import { mediaRelayPath } from './media-relay.js';
import { sampleOf } from './sample.js';
import { webhooksSection, WebhookEventSchema } from './webhooks.js';

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed in the window of the most restrictive limiter that applied', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in that window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until that window resets (never a timestamp)', schema: { type: 'integer' } },
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } } };

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry for 24 h: the same key with the same request replays the first answer (with `Idempotent-Replayed: true`); the same key with another request is 422; concurrent duplicates run once. Answers 429 and 5xx are not kept.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  example: '5b0d7c1e-0f4a-4a49-9d4e-6f1d2c3b4a59',
};

const PATH_PARAM = /\{(\w+)\}/g;

/** Turns a route's zod schemas into OpenAPI objects, collecting named schemas as components. */
class OperationBuilder {
  constructor(private readonly components: ComponentSchemas) {}

  private example(schema: JsonSchema, name = ''): unknown {
    return sampleOf(schema, (s) => this.components.resolve(s), name);
  }

  private withExample(schema: JsonSchema, name = ''): { schema: JsonSchema; example?: unknown } {
    const example = this.example(schema, name);
    return example === undefined ? { schema } : { schema, example };
  }

  /** Path parameters: every `{name}` of the path, typed from the route's params schema when it declares one. */
  private pathParameters(route: Route): JsonSchema[] {
    const declared = route.params ? ((this.components.convert(route.params, 'input') as { properties?: Record<string, JsonSchema> }).properties ?? {}) : {};
    return [...route.path.matchAll(PATH_PARAM)].map(([, name = '']) => {
      const schema = declared[name] ?? (name === 'id' || name.endsWith('_id') ? { type: 'integer', minimum: 1 } : { type: 'string', minLength: 1 });
      return { name, in: 'path', required: true, ...(typeof schema.description === 'string' ? { description: schema.description } : {}), ...this.withExample(schema, name) };
    });
  }

  private queryParameters(route: Route): JsonSchema[] {
    if (!route.query) return [];
    const json = this.components.convert(route.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    return Object.entries(json.properties ?? {}).map(([name, s]) => ({
      name,
      in: 'query',
      required: (json.required ?? []).includes(name),
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      ...this.withExample(s, name),
    }));
  }

  private errorResponses(codes: readonly ErrorCode[]): JsonSchema {
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) byStatus.set(ERROR_TABLE[code].http, [...(byStatus.get(ERROR_TABLE[code].http) ?? []), code]);
    const out: JsonSchema = {};
    for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
      out[String(status)] = {
        description: group.map((c) => `\`${c}\`: ${meaningOf(c)}`).join('\n\n'),
        headers: status === 429 || status === 503 ? { ...RATE_HEADERS, ...RETRY_AFTER } : RATE_HEADERS,
        content: {
          'application/json': {
            schema: ERROR_REF,
            examples: Object.fromEntries(group.map((c) => [c, { summary: c, value: errorExample(c) }])),
          },
        },
      };
    }
    return out;
  }

  build(route: Route): JsonSchema {
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
    const pathParams = this.pathParameters(route);
    const reachable = route.audience !== 'dashboard';
    const success: JsonSchema = reachable
      ? {
          [String(route.status)]: {
            description: 'Success',
            headers: RATE_HEADERS,
            content: { 'application/json': route.response ? this.withExample(this.components.convert(route.response, 'output')) : { schema: {}, example: {} } },
          },
        }
      : {};
    return {
      operationId: `${route.method}${route.path
        .replace(/[{}]/g, '')
        .replace(/\/(\w)/g, (_m, c: string) => c.toUpperCase())
        .replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}`,
      summary: route.summary,
      description: [route.description, ...rules].filter(Boolean).join('\n\n'),
      tags: [route.tag],
      parameters: [...pathParams, ...this.queryParameters(route), ...(route.method === 'post' && reachable ? [IDEMPOTENCY_HEADER] : [])],
      ...(route.body && reachable ? { requestBody: { required: true, content: { 'application/json': this.withExample(this.components.convert(route.body, 'input')) } } } : {}),
      responses: { ...success, ...this.errorResponses(errorCodesOf(route, pathParams.length > 0)) },
    };
  }
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  'Dashboard only': 'Operations that need a dashboard session: every API key and Site token gets 403 ENDPOINT_NOT_AVAILABLE. Listed so that a client learns why, instead of a 404.',
  Webhooks: 'Events this API sends to your HTTPS endpoints, signed with X-Service-Signature.',
};

/** A tag's description: a written one, else the summaries of its operations. */
function tagDescription(tag: string, routes: readonly Route[]): string {
  const summaries = routes.filter((r) => r.tag === tag).map((r) => r.summary);
  const written = TAG_DESCRIPTIONS[tag];
  if (written) return written;
  return summaries.length ? `${summaries.join('; ')}.` : tag;
}

const ERROR_CODES_TABLE = () =>
  `| code | HTTP |\n|---|---|\n${Object.entries(ERROR_TABLE)
    .map(([code, m]) => `| ${code} | ${m.http} |`)
    .join('\n')}`;

/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas: named schemas in
 * components/schemas, examples and error codes for every operation derived from what each route declares.
 */
export function buildOpenApi(routes: readonly Route[]): object {
  const components = new ComponentSchemas();
  components.convert(ErrorEnvelopeSchema, 'output');
  const builder = new OperationBuilder(components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = builder.build(route);
  paths['/media/{r2_key}'] = mediaRelayPath();
  const webhookRef = components.convert(WebhookEventSchema, 'output');
  const tags = [...new Set([...routes.map((r) => r.tag), 'Media', 'Webhooks'])];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Social Publishing and AI Content API',
      version: '2.12.0',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: [
        'Schedule and publish posts to 15 social platforms. Authenticate with `Authorization: Bearer <API_KEY>`.',
        'Every error uses the envelope `{error:{message,code,details?,retry_after?}}`, also when the HTTP parser refuses a request before routing (400 BAD_REQUEST, 408 REQUEST_TIMEOUT, 431 REQUEST_HEADERS_TOO_LARGE). Malformed JSON is 422 INVALID_PARAMETERS; a body over the route limit is 413 PAYLOAD_TOO_LARGE; an unknown path is 404 NOT_FOUND.',
        `Every /api/v1 response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset describing the most restrictive limiter that applied (the global limit is ${GLOBAL_LIMIT.points} requests per minute per IP).`,
        'Text fields (in paths, queries and bodies) must not contain control characters U+0000 to U+001F other than tab, line feed and carriage return: such a request is 422 INVALID_PARAMETERS naming each field. Every integer states its range (`minimum`, `maximum`) and the width of the field it travels in (`format`: int32, uint32 or int64, an int64 as a JSON number going as far as 2^53 - 1); a value outside it is 422 naming the field.',
        'AI agents: every operation below that an API key can call is also a tool of the MCP server at `/mcp` (Model Context Protocol, Streamable HTTP, stateless), with these schemas and the same scopes, plans, limits and error codes; see docs/mcp.md.',
        'Resources are returned with every field present; a field with no value is `null`. This document is served compressed (gzip, deflate or br) when the client accepts it.',
        ERROR_CODES_TABLE(),
      ].join('\n\n'),
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    tags: tags.map((name) => ({ name, description: tagDescription(name, routes) })),
    paths,
    webhooks: webhooksSection(webhookRef, components),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Personal API key (sk_live_…) or, for Site Push, a Site Connection token (st_live_…)' } },
      schemas: components.schemas,
    },
  };
}
