import net from 'node:net';
import { ERROR_TABLE } from '@spa/errors';
import { createWorkspace, freshClientAddress, startStack, type HttpResponse, type Stack, type TestWorkspace } from '@spa/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deeplyNested, fieldPaths, HOSTILE_JSON, HOSTILE_PATH, HOSTILE_QUERY, withField } from '../support/fuzz/hostile.js';
import { operationsOf, urlOf, type Json, type Operation } from '../support/fuzz/operations.js';

/**
 * Fuzzing from the OpenAPI document: every operation the gateway documents is driven with the values of
 * its schema (the document's examples) and with hostile variants (wrong types, huge and negative numbers,
 * long and odd strings, operator objects, non-integer path ids, oversized URLs and headers). No answer
 * may be a 5xx, every error is the envelope, and a refused request stores nothing. Deterministic: a fixed
 * fast-check seed.
 */
const SEED = 20_261_123;
const RUNS_PER_OPERATION = 8;

let stack: Stack;
let valid: TestWorkspace;
let hostile: TestWorkspace;
let ops: Operation[];

beforeAll(async () => {
  // Every backend the document's routes reach, the publisher included (account lookups go through its connectors).
  stack = await startStack({ publishing: true, webhooks: true });
  [valid, hostile] = await Promise.all([createWorkspace(stack), createWorkspace(stack)]);
  const doc = (await stack.api('/openapi.json', { localAddress: freshClientAddress() })).json as Json;
  ops = operationsOf(doc);
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

interface Sent {
  url: string;
  method: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const describeSent = (s: Sent) => `${s.method.toUpperCase()} ${s.url.slice(0, 300)}${s.body === undefined ? '' : ` body=${JSON.stringify(s.body)?.slice(0, 300)}`}`;

async function send(op: Operation, s: Sent, token: string): Promise<HttpResponse> {
  const octets = op.body?.type === 'application/octet-stream';
  const body = s.body === undefined ? undefined : octets ? String(s.body) : JSON.stringify(s.body);
  return stack.http(s.url, {
    method: s.method.toUpperCase(),
    token: op.security ? token : undefined,
    body,
    headers: { ...(octets ? { 'content-type': 'application/octet-stream' } : {}), ...s.headers },
    localAddress: freshClientAddress(),
  });
}

/** No 5xx; every error in the envelope, with the status its code maps to. */
function expectWellFormed(res: HttpResponse, s: Sent): void {
  const where = `${describeSent(s)} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  if (res.status < 400 || s.method === 'head') return;
  expect(res.json, where).toBeTypeOf('object');
  expect(Object.keys(res.json), where).toEqual(['error']);
  expect(res.json.error.message, where).toBeTypeOf('string');
  expect(res.json.error.code, where).toBeTypeOf('string');
  const mapped = (ERROR_TABLE as Record<string, { http: number }>)[res.json.error.code];
  if (mapped) expect(mapped.http, where).toBe(res.status);
}

/** Everything the workspace holds, as the document's parameterless collection GETs show it. */
async function snapshot(collections: Operation[], token: string): Promise<string> {
  const answers = await Promise.all(collections.map(async (op) => [op.path, (await send(op, { url: urlOf(op, { query: {} }), method: 'get' }, token)).text]));
  return JSON.stringify(answers);
}

type Variant =
  | { kind: 'path'; name: string; value: string }
  | { kind: 'query'; name: string; value: string | string[] }
  | { kind: 'field'; path: Array<string | number>; value: unknown }
  | { kind: 'body'; value: unknown }
  | { kind: 'header'; name: string; value: string };

function variants(op: Operation): fc.Arbitrary<Variant> {
  const options: Array<fc.Arbitrary<Variant>> = [];
  const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  if (pathNames.length) options.push(fc.record({ kind: fc.constant('path' as const), name: fc.constantFrom(...pathNames), value: fc.constantFrom(...HOSTILE_PATH) }));
  if (queryNames.length) options.push(fc.record({ kind: fc.constant('query' as const), name: fc.constantFrom(...queryNames), value: fc.constantFrom(...HOSTILE_QUERY) }));
  if (op.body) {
    const fields = fieldPaths(op.body.example);
    if (fields.length) options.push(fc.record({ kind: fc.constant('field' as const), path: fc.constantFrom(...fields), value: fc.constantFrom(...HOSTILE_JSON) }));
    options.push(fc.record({ kind: fc.constant('body' as const), value: fc.constantFrom(...HOSTILE_JSON, deeplyNested(5000)) }));
  }
  options.push(
    fc.record({
      kind: fc.constant('header' as const),
      name: fc.constantFrom('idempotency-key', 'content-type', 'x-request-id', 'accept', 'content-encoding'),
      value: fc.constantFrom('', ' ', 'x'.repeat(300), 'x'.repeat(8000), '\t', 'gzip', 'text/plain', '{"$gt":""}'),
    }),
  );
  return fc.oneof(...options);
}

function sentFor(op: Operation, v: Variant): Sent {
  const examples = Object.fromEntries(op.parameters.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, String(p.example)]));
  const s: Sent = { url: urlOf(op), method: op.method, ...(op.body ? { body: op.body.example } : {}) };
  if (v.kind === 'path') s.url = urlOf(op, { path: { [v.name]: v.value } });
  if (v.kind === 'query') s.url = urlOf(op, { query: { ...examples, [v.name]: v.value } });
  if (v.kind === 'field') s.body = withField(op.body?.example, v.path, v.value);
  if (v.kind === 'body') s.body = v.value;
  if (v.kind === 'header') s.headers = { [v.name]: v.value };
  return s;
}

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

describe('fuzzing every operation of the OpenAPI document', () => {
  it('answers the schema values of every operation without a 5xx, errors in the envelope', async () => {
    expect(ops.length).toBeGreaterThan(50);
    for (const op of ops) {
      const s: Sent = { url: urlOf(op), method: op.method, ...(op.body ? { body: op.body.example } : {}) };
      expectWellFormed(await send(op, s, valid.apiKey), s);
    }
  });

  it('answers hostile variants of every operation without a 5xx, in the envelope, storing nothing when refused', { timeout: 300_000 }, async () => {
    const collections = ops.filter((op) => op.method === 'get' && op.security && !op.parameters.some((p) => p.in === 'path' || p.required) && op.server === '/api/v1');
    // Collections whose answer is the same on two reads (a computed `updated_at` is not).
    const read = async (op: Operation) => send(op, { url: urlOf(op, { query: {} }), method: 'get' }, hostile.apiKey);
    const probe = await Promise.all(collections.map(async (op) => [op, await read(op), await read(op)] as const));
    const stable = probe.filter(([, a, b]) => a.status === 200 && a.text === b.text).map(([op]) => op);
    expect(stable.map((op) => op.path)).toContain('/posts');
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(variants(op), async (v) => {
          const s = sentFor(op, v);
          const write = WRITES.has(op.method);
          const before = write ? await snapshot(stable, hostile.apiKey) : '';
          const res = await send(op, s, hostile.apiKey);
          expectWellFormed(res, s);
          if (write && res.status >= 400) expect(await snapshot(stable, hostile.apiKey), `refused ${describeSent(s)} changed the workspace`).toBe(before);
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }
  });
});

/** One raw HTTP exchange, for what no HTTP client sends. */
function raw(request: string): Promise<{ status: number; body: string }> {
  const url = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress: freshClientAddress() });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.end(request);
  });
}

describe("what Node's HTTP parser refuses", () => {
  it('answers an oversized URL or header with 431 in the envelope', async () => {
    const longUrl = await stack.api(`/posts?status=${'a'.repeat(20_000)}`, { token: valid.apiKey, localAddress: freshClientAddress() });
    expect([longUrl.status, longUrl.json?.error?.code]).toEqual([431, 'REQUEST_HEADERS_TOO_LARGE']);
    const bigHeader = await stack.api('/posts', { token: valid.apiKey, headers: { 'x-padding': 'p'.repeat(20_000) }, localAddress: freshClientAddress() });
    expect([bigHeader.status, bigHeader.json?.error?.code]).toEqual([431, 'REQUEST_HEADERS_TOO_LARGE']);
  });

  it('answers a malformed request with 400 in the envelope', async () => {
    const res = await raw('GARBAGE / HTTP/9.9\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    const badHeader = await raw('GET /api/v1/posts HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
    expect(badHeader.status).toBe(400);
    expect(JSON.parse(badHeader.body)).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  });

  it('serves the document compressed', async () => {
    const res = await fetch(`${stack.baseUrl}/api/v1/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});
