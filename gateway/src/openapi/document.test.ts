import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { LIFECYCLE_EVENT_KINDS } from '@spa/vocabulary';
import { verifySignature } from '@spa/webhook-signature';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route, type Route } from '../routes/route.js';
import { ROUTES } from '../routes/table.js';
import { buildOpenApi } from './document.js';
import { EXAMPLE_SECRET } from './webhooks.js';

type Doc = {
  paths: Record<string, Record<string, Op>>;
  webhooks: Record<string, { post: Op }>;
  components: { schemas: Record<string, unknown> };
  info: { license?: { name: string } };
};
type Op = {
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown; examples?: Record<string, { value: { error: { code: string } } }> }> }>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'];
const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op })),
  );

/** A route as someone adding a feature would write it: no examples, no error list, an undeclared path parameter. */
const bareRoute: Route = route({
  method: 'post',
  path: '/widgets/{widget_id}/frobnicate',
  summary: 'Frobnicate a widget',
  tag: 'Widgets',
  audience: 'api_key',
  scope: 'posts:write',
  plan: 'paid',
  body: z.object({ level: z.number().int().min(1).max(9), note: z.string().max(10).optional(), at: z.iso.datetime() }).strict(),
  status: 200,
  response: z.object({ ok: z.boolean(), widget: z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'Widget' }) }),
});

async function redoclyErrors(doc: object): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const run = await promisify(execFile)('npx', ['redocly', 'lint', file, '--config', join(process.cwd(), 'redocly.yaml'), '--format=summary'], {
    cwd: process.cwd(),
  }).then(
    (r) => ({ ok: true, out: r.stdout + r.stderr }),
    (e: { stdout: string; stderr: string }) => ({ ok: false, out: e.stdout + e.stderr }),
  );
  return run.ok ? '' : run.out;
}

describe('the OpenAPI document', () => {
  const doc = buildOpenApi(ROUTES) as Doc;

  it('keeps named schemas in components/schemas and never points at $defs', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('$defs');
    for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas, name).toHaveProperty([name as string]);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Error', 'Post', 'WebhookEvent']));
    expect(doc.info.license?.name).toBeTruthy();
  });

  it('is valid for swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('declares every path parameter and has examples for every request, parameter and response', () => {
    for (const { path, method, op } of operations(doc)) {
      const where = `${method} ${path}`;
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared, where).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      for (const p of op.parameters ?? []) expect(p.example, `${where} ${p.name}`).toBeDefined();
      for (const media of Object.values(op.requestBody?.content ?? {})) expect(media.example, where).toBeDefined();
      for (const [status, res] of Object.entries(op.responses)) {
        for (const media of Object.values(res.content ?? {})) expect(media.example ?? media.examples, `${where} ${status}`).toBeDefined();
      }
    }
  });

  it('lists every error code an operation can answer, one example each', () => {
    const codes = (path: string, method: string) => Object.values(doc.paths[path]![method]!.responses).flatMap((r) => Object.keys(r.content?.['application/json']?.examples ?? {}));
    expect(codes('/posts/{id}/approve', 'post')).toEqual(
      expect.arrayContaining(['UNAUTHORIZED', 'INSUFFICIENT_SCOPE', 'NO_ACTIVE_SUBSCRIPTION', 'TIER_UPGRADE_REQUIRED', 'NOT_FOUND', 'INVALID_PARAMETERS', 'INVALID_STATE', 'RATE_LIMIT_EXCEEDED']),
    );
    expect(codes('/api_keys', 'get').filter((c) => c !== 'UNAUTHORIZED' && c !== 'RATE_LIMIT_EXCEEDED' && c !== 'INTERNAL_ERROR')).toEqual(['ENDPOINT_NOT_AVAILABLE']);
    for (const [status, res] of Object.entries(doc.paths['/posts']!.post!.responses)) {
      for (const [code, ex] of Object.entries(res.content?.['application/json']?.examples ?? {})) expect([status, ex.value.error.code]).toEqual([status, code]);
    }
  });

  it('documents the media relay and the presigned PUT', () => {
    expect(Object.keys(doc.paths['/media/{r2_key}']!)).toEqual(expect.arrayContaining(['get', 'head', 'put']));
  });

  it('describes the contract webhook events and every opt-in lifecycle kind, each with a signature that verifies', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(['post.failed', 'post.partial_failure', 'post.published', 'webhook.test', ...LIFECYCLE_EVENT_KINDS].sort());
    for (const hook of Object.values(doc.webhooks)) {
      const header = hook.post.parameters!.find((p) => p.name === 'X-Service-Signature')!.example as string;
      const body = JSON.stringify(hook.post.requestBody!.content['application/json']!.example);
      const t = Number(/t=(\d+)/.exec(header)![1]);
      expect(verifySignature(body, header, EXAMPLE_SECRET, { nowSeconds: t })).toEqual({ valid: true, timestamp: t });
    }
  });

  it('stays valid and lint-clean when a route is added without examples or error lists', async () => {
    const grown = buildOpenApi([...ROUTES, bareRoute]) as Doc;
    const op = grown.paths['/widgets/{widget_id}/frobnicate']!.post!;
    expect(op.parameters!.find((p) => p.name === 'widget_id')).toMatchObject({ in: 'path', example: 1 });
    expect(op.requestBody!.content['application/json']!.example).toEqual({ level: 1, note: 'example no', at: '2026-03-02T09:30:00Z' });
    await expect(SwaggerParser.validate(structuredClone(grown) as never)).resolves.toBeTruthy();
    expect(await redoclyErrors(grown)).toBe('');
  });
});
