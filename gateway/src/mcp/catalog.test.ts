import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApi } from '../openapi/document.js';
import { route, type Route } from '../routes/route.js';
import { ROUTES } from '../routes/table.js';
import { buildCatalog, type CatalogTool, type OpenApiDocument } from './catalog.js';
import { restRequestOf, toolResultOf } from './tool-call.js';

type Schema = Record<string, unknown>;

/** The schema with every reference replaced by what it names (a reference met again inside itself stays a reference). */
function inline(schema: unknown, lookup: (ref: string) => unknown, open: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, lookup, open));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, $defs: _defs, ...rest } = schema as Schema;
  if (typeof $ref === 'string') {
    const name = $ref.slice($ref.lastIndexOf('/') + 1);
    if (open.has(name)) return { $ref: name };
    return inline({ ...(lookup($ref) as Schema), ...rest }, lookup, new Set([...open, name]));
  }
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(v, lookup, open)]));
}

const docLookup = (doc: OpenApiDocument) => (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
const toolLookup = (schema: Schema) => (ref: string) => (schema.$defs as Record<string, unknown>)[ref.replace('#/$defs/', '')];

/** A tool's argument schemas, references inlined, next to the operation's, references inlined. */
function argumentsOfBoth(tool: CatalogTool, doc: OpenApiDocument) {
  const op = doc.paths[tool.route.path]![tool.route.method]!;
  const properties = tool.inputSchema.properties as Record<string, unknown>;
  const fromTool: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) fromTool[name] = inline(schema, toolLookup(tool.inputSchema));
  const fromDoc: Record<string, unknown> = {};
  for (const p of op.parameters ?? []) if (p.in === 'path' || p.in === 'query') fromDoc[p.name] = inline(p.schema, docLookup(doc));
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) fromDoc.body = inline(body, docLookup(doc));
  return { fromTool, fromDoc };
}

/** A route as someone adding a feature would write it. */
const newRoute: Route = route({
  method: 'post',
  path: '/widgets/{widget_id}/frobnicate',
  summary: 'Frobnicate a widget',
  tag: 'Widgets',
  audience: 'api_key',
  scope: 'posts:write',
  plan: 'paid',
  params: z.object({ widget_id: z.coerce.number().int().positive() }),
  query: z.object({ dry: z.enum(['yes', 'no']).optional() }).strict(),
  body: z.object({ level: z.number().int().min(1).max(9) }).strict(),
  status: 200,
  response: z.object({ ok: z.boolean(), widget: z.object({ id: z.number().int() }).meta({ id: 'Widget' }) }),
});

describe('MCP tools are the REST operations', () => {
  const doc = buildOpenApi(ROUTES) as OpenApiDocument;
  const catalog = buildCatalog(ROUTES, doc);

  it('has one tool per operation an API key can call, and none for dashboard-only or Site Push operations', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    const apiKeyOperations = ROUTES.filter((r) => r.audience === 'api_key').map((r) => `${r.method} ${r.path}`);
    expect(catalog.map((t) => `${t.route.method} ${t.route.path}`).sort()).toEqual(apiKeyOperations.sort());
    for (const op of apiKeyOperations) expect(operations).toContain(op);
    for (const r of ROUTES.filter((r) => r.audience !== 'api_key')) expect(catalog.find((t) => t.route === r)).toBeUndefined();
    expect(new Set(catalog.map((t) => t.name)).size).toBe(catalog.length);
    for (const t of catalog) expect(t.name).toMatch(/^[a-z][a-z0-9_]{2,63}$/);
  });

  it("takes each operation's path and query parameters and body with the OpenAPI document's schemas", () => {
    for (const tool of catalog) {
      const { fromTool, fromDoc } = argumentsOfBoth(tool, doc);
      expect(fromTool, tool.name).toEqual(fromDoc);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      const op = doc.paths[tool.route.path]![tool.route.method]!;
      const required = [...(op.parameters ?? []).filter((p) => p.required && p.in !== 'header').map((p) => p.name), ...(op.requestBody?.required ? ['body'] : [])];
      expect([...((tool.inputSchema.required as string[] | undefined) ?? [])].sort(), tool.name).toEqual(required.sort());
      expect(tool.description, tool.name).toContain(op.summary);
      if (op.description) expect(tool.description, tool.name).toContain(op.description);
    }
  });

  it("answers with the OpenAPI document's success schema as its output schema", () => {
    const withOutput = catalog.filter((t) => t.outputSchema);
    expect(withOutput.length).toBeGreaterThan(catalog.length * 0.9);
    for (const tool of withOutput) {
      const op = doc.paths[tool.route.path]![tool.route.method]!;
      const success = op.responses[String(tool.route.status)]!.content!['application/json']!.schema;
      expect(inline(tool.outputSchema, toolLookup(tool.outputSchema!)), tool.name).toEqual(inline(success, docLookup(doc)));
      expect(tool.outputSchema!.type).toBe('object');
    }
  });

  it('is listed tool by tool in docs/mcp.md, with its REST operation', () => {
    const docs = readFileSync('docs/mcp.md', 'utf8');
    for (const t of catalog) expect(docs, t.name).toContain(`| \`${t.name}\` | \`${t.route.method.toUpperCase()} ${t.route.path}\` |`);
  });

  it('fails to build when a schema it needs is missing from the document', () => {
    const broken = structuredClone(doc);
    delete broken.components.schemas.Post;
    expect(() => buildCatalog(ROUTES, broken)).toThrow(/no schema Post/);
  });

  it('gives a new operation its tool, named from its method and path, without any other change', () => {
    const routes = [...ROUTES, newRoute];
    const tool = buildCatalog(routes, buildOpenApi(routes) as OpenApiDocument).find((t) => t.route === newRoute)!;
    expect(tool.name).toBe('post_widgets_frobnicate');
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(['widget_id', 'dry', 'body']);
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(tool.outputSchema?.$defs).toHaveProperty('Widget');
  });

  it('marks reads read-only, and publishing and deleting a post destructive and open-world', () => {
    const byName = new Map(catalog.map((t) => [t.name, t]));
    for (const t of catalog.filter((t) => t.route.method === 'get')) expect(t.annotations.readOnlyHint, t.name).toBe(true);
    for (const t of catalog.filter((t) => t.route.method !== 'get')) expect(t.annotations.readOnlyHint, t.name).toBe(false);
    for (const name of ['publish_post', 'delete_post', 'approve_post']) {
      expect(byName.get(name)?.annotations, name).toMatchObject({ destructiveHint: true, openWorldHint: true });
    }
    expect(byName.get('create_post')?.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(byName.get('update_post')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true, openWorldHint: false });
    expect(byName.get('generate_post')?.annotations.openWorldHint).toBe(true);
    expect(byName.get('list_pinterest_boards')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it('turns arguments into the REST request: path and query by name, the body as is', () => {
    const byName = new Map(catalog.map((t) => [t.name, t]));
    expect(restRequestOf(byName.get('list_posts')!, { status: 'draft,scheduled', limit: 5, offset: 10 })).toEqual({ method: 'get', url: '/api/v1/posts?status=draft%2Cscheduled&limit=5&offset=10' });
    expect(restRequestOf(byName.get('delete_tumblr_media')!, { r2_key: 'ws/1/2026/01/a b.png' })).toEqual({ method: 'delete', url: '/api/v1/tumblr/media_uploads/ws%2F1%2F2026%2F01%2Fa%20b.png' });
    expect(restRequestOf(byName.get('publish_post')!, { post_id: 7, body: { to_next_slot: true } })).toEqual({ method: 'post', url: '/api/v1/posts/7/publishes', body: { to_next_slot: true } });
    const refused = restRequestOf(byName.get('get_post')!, { post_id: 7 });
    expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_PARAMETERS', details: [expect.stringMatching(/^post_id: unknown argument/), 'id: required'] } } });
  });

  it('answers a REST refusal as a tool error carrying the code and message, and a success as JSON with a summary', () => {
    const refused = toolResultOf('Create a post', { status: 403, body: { error: { code: 'INSUFFICIENT_SCOPE', message: 'This API key lacks the required scope posts:write' } } });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toBe('INSUFFICIENT_SCOPE: This API key lacks the required scope posts:write');
    const limited = toolResultOf('Publish', { status: 429, body: { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: 12 } } });
    expect(limited.content[0]!.text).toBe('RATE_LIMIT_EXCEEDED: Rate limit exceeded\nRetry after 12 s.');
    const listed = toolResultOf('List posts', { status: 200, body: { posts: [{ id: 1 }, { id: 2 }], meta: { limit: 2, offset: 0, total_count: 5 } } });
    expect(listed.isError).toBeUndefined();
    expect(listed.content[0]!.text).toBe('List posts: 2 posts, 5 in all from offset 0; page with offset and limit (HTTP 200).');
    expect(JSON.parse(listed.content[1]!.text)).toEqual(listed.structuredContent);
    const created = toolResultOf('Create a post', { status: 201, body: { post: { id: 9, status: 'scheduled', scheduled_at: '2030-01-01T10:00:00.000Z' } } });
    expect(created.content[0]!.text).toBe('Create a post: post 9 (scheduled, scheduled at 2030-01-01T10:00:00.000Z) (HTTP 201).');
  });
});
