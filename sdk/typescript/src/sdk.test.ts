import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { signatureHeader } from '@spa/webhook-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, retryAfterMs, unwrap, verifyWebhook, WebhookVerificationError } from './index.js';

/** A loopback server whose answers each test scripts; it records what it received. */
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
let answers: Array<{ status: number; headers?: Record<string, string>; body: unknown }> = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const a = answers.shift() ?? { status: 500, body: { error: { message: 'no scripted answer', code: 'INTERNAL_ERROR' } } };
      res.writeHead(a.status, { 'content-type': 'application/json', 'x-request-id': `req-${seen.length}`, ...a.headers }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const start = (scripted: typeof answers) => {
  seen.length = 0;
  answers = scripted;
};
const waits: number[] = [];
const api = () => createApiClient({ baseUrl, apiKey: 'sk_test', retry: { sleep: async (ms) => void waits.push(ms) } });

describe('the SDK client', () => {
  it('retries 429 and 503 honouring Retry-After, with one Idempotency-Key for every attempt of a POST', async () => {
    waits.length = 0;
    start([
      { status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'slow down', code: 'RATE_LIMIT_EXCEEDED', retry_after: 2 } } },
      { status: 503, body: { error: { message: 'busy', code: 'SERVICE_UNAVAILABLE' } } },
      { status: 201, body: { post: { id: 7 } } },
    ]);
    const { post } = await unwrap(api().POST('/posts', { body: { post: { body: 'hello' } } }));
    expect(post.id).toBe(7);
    expect(waits).toEqual([2000, 1000]);
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(Array(3).fill(seen[0]!.headers['idempotency-key']));
    expect(seen[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.every((s) => s.body === '{"post":{"body":"hello"}}' && s.headers.authorization === 'Bearer sk_test')).toBe(true);
  });

  it('keeps a caller-given Idempotency-Key and sends none on a GET', async () => {
    start([
      { status: 201, body: { post: { id: 1 } } },
      { status: 200, body: { post: { id: 1 } } },
    ]);
    await unwrap(api().POST('/posts', { body: { post: {} }, headers: { 'Idempotency-Key': 'mine' } }));
    await unwrap(api().GET('/posts/{id}', { params: { path: { id: 1 } } }));
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['mine', undefined]);
  });

  it('throws the error envelope as a typed ApiError, and gives up after the retries', async () => {
    start([{ status: 422, body: { error: { message: 'bad', code: 'INVALID_PARAMETERS', details: ['post.body: too long'] } } }]);
    const err = await unwrap(api().POST('/posts', { body: { post: {} } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'INVALID_PARAMETERS', details: ['post.body: too long'], requestId: 'req-1' });
    start(Array(4).fill({ status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow', code: 'RATE_LIMIT_EXCEEDED', retry_after: 0 } } }));
    await expect(unwrap(api().GET('/posts'))).rejects.toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfter: 0 });
    expect(seen).toHaveLength(4);
  });

  it('pages through GET /posts until total_count', async () => {
    const page = (ids: number[], offset: number) => ({ status: 200, body: { posts: ids.map((id) => ({ id })), counts: {}, meta: { limit: 2, offset, total_count: 5 } } });
    start([page([1, 2], 0), page([3, 4], 2), page([5], 4)]);
    const ids: number[] = [];
    for await (const post of api().listAllPosts({ limit: 2, status: 'draft' })) ids.push(post.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(seen.map((s) => new URL(s.url, baseUrl).searchParams.get('offset'))).toEqual(['0', '2', '4']);
    expect(new URL(seen[0]!.url, baseUrl).searchParams.get('status')).toBe('draft');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('verifyWebhook', () => {
  const body = JSON.stringify({ id: 'e1', event: 'post.published', post_id: 1, occurred_at: '2026-03-02T09:30:00.000Z', data: { status: 'posted', platforms: [] } });
  const now = 1_800_000_000;

  it('accepts any v1 of a rotation and any of several receiver secrets', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], now, body);
    expect(verifyWebhook(body, header, 'whsec_old', { nowSeconds: now }).event).toBe('post.published');
    expect(verifyWebhook(Buffer.from(body), header, ['whsec_other', 'whsec_new'], { nowSeconds: now }).post_id).toBe(1);
  });

  it('refuses a wrong secret, a changed body and a stale timestamp', () => {
    const header = signatureHeader(['whsec_a'], now, body);
    expect(() => verifyWebhook(body, header, 'whsec_b', { nowSeconds: now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(`${body} `, header, 'whsec_a', { nowSeconds: now })).toThrow(/does not match/);
    expect(() => verifyWebhook(body, header, 'whsec_a', { nowSeconds: now + 301 })).toThrow(/tolerance/);
    expect(() => verifyWebhook(body, undefined, 'whsec_a')).toThrow(/missing/);
  });
});

describe('the generated types', () => {
  it('are what the OpenAPI document gives (npm run generate -w @spa/sdk)', async () => {
    const script = join(dirname(fileURLToPath(import.meta.url)), '../scripts/generate.mjs');
    const run = await promisify(execFile)(process.execPath, [script, '--check']).catch((e: { stderr: string }) => ({ stdout: '', stderr: e.stderr }));
    expect(run.stderr).toBe('');
  });
});
