import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { localAddress: freshClientAddress(), ...opts });

function expectRateLimitHeaders(headers: Record<string, unknown>, limit = 100): void {
  expect(headers['ratelimit-limit']).toBe(String(limit));
  expect(Number(headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
  const reset = Number(headers['ratelimit-reset']);
  expect(Number.isInteger(reset) && reset >= 0 && reset <= 60).toBe(true);
}

describe('the error envelope everywhere', () => {
  it('answers an unknown route with 404 NOT_FOUND and rate-limit headers', async () => {
    const res = await call('/no/such/thing', { token: ws.apiKey });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.json.error.message).toContain('/api/v1/no/such/thing');
    expectRateLimitHeaders(res.headers);
    const outside = await stack.http('/nope', { localAddress: freshClientAddress() });
    expectError(outside, 404, 'NOT_FOUND');
  });

  it('answers malformed JSON with 422 INVALID_PARAMETERS and stores nothing', async () => {
    const res = await call('/posts', { token: ws.apiKey, body: '{"post": {"body": "x",' });
    expectError(res, 422, 'INVALID_PARAMETERS');
    expect(res.json.error.message).toMatch(/not valid JSON/);
    const empty = await call('/posts', { token: ws.apiKey, method: 'POST' });
    expectError(empty, 422, 'INVALID_PARAMETERS');
    expect((await call('/posts?status=draft', { token: ws.apiKey })).json.meta.total_count).toBe(0);
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await call('/posts', { token: ws.apiKey, body: { post: { body: 'x'.repeat(1_100_000) } } });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expectRateLimitHeaders(res.headers);
  });

  it('answers a JSON array or scalar body with 422, not 500', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) expectError(await call('/posts', { token: ws.apiKey, body }), 422, 'INVALID_PARAMETERS');
  });

  it('puts RateLimit headers (seconds, never a timestamp) on successes and errors alike', async () => {
    for (const res of [await call('/posts', { token: ws.apiKey }), await call('/posts'), await call('/openapi.json')]) {
      expectRateLimitHeaders(res.headers);
    }
  });

  it('echoes a request id, or makes one', async () => {
    const given = await call('/posts', { token: ws.apiKey, headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const made = await call('/posts', { token: ws.apiKey });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('documentation', () => {
  it('serves an OpenAPI 3.1 document generated from the route table', async () => {
    const res = await call('/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/posts', '/posts/{id}', '/posts/{id}/approve', '/social_accounts', '/site_pushes/status', '/api_keys']));
    const list = doc.paths['/posts'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['status', 'source', 'scheduled_after', 'scheduled_before', 'platform', 'sort', 'sort_direction', 'limit', 'offset']);
    expect(list.description).toContain('Scope: `posts:read`');
    expect(doc.paths['/posts'].post.requestBody.content['application/json'].schema.properties.post.additionalProperties).toBe(false);
    expect(doc.paths['/posts/{id}/approve'].post.description).toContain('Plan: Pro or Team');
    expect(doc.paths['/posts'].post.responses['201']).toBeDefined();
  });

  it('serves a human docs page', async () => {
    const page = await stack.http('/docs', { localAddress: freshClientAddress() });
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui-bundle.js');
    const asset = await stack.http('/docs/assets/swagger-ui-bundle.js', { localAddress: freshClientAddress() });
    expect(asset.status).toBe(200);
  });
});
