import net from 'node:net';
import { ERROR_TABLE } from '@spa/errors';
import { createWorkspace, freshClientAddress, request, type HttpOptions, type HttpResponse, type Stack, type TestWorkspace } from '@spa/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deeplyNested, fieldPaths, HOSTILE_JSON, HOSTILE_PATH, HOSTILE_QUERY, RawJson, withField } from '../support/fuzz/hostile.js';
import { operationsOf, urlOf, type Json, type Operation } from '../support/fuzz/operations.js';
import { anyJson, bodyLike } from '../support/fuzz/random.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * Fuzzing from the OpenAPI document: every operation the gateway documents is driven with the values of
 * its schema (the document's examples), with hostile variants (wrong types, the edges of int32, uint32 and
 * int64, control characters, huge arrays, long and odd strings, operator objects, non-integer path ids,
 * oversized URLs and headers) and with random bodies shaped like its own. Over 10,000 requests in all. No
 * answer may be a 5xx, every error is the envelope, and a refused write stores nothing. Deterministic: a
 * fixed seed.
 */
const SEED = 20_261_123;
/** Requests the file sends in all; the concurrent phase sends what the others left of it. */
const TOTAL_REQUESTS = 10_000;
const CONCURRENCY = 12;
/** Workspaces that each check their share of writes, one at a time, for nothing stored when refused. */
const LANES = 4;
const VARIANTS_PER_WRITE = 1;
/** Workspaces the bulk requests spread over, so that a per-token bucket leaves room for most of an operation's requests. */
const TOKENS = 6;

let stack: Stack;
let gatewayUrl: string;
/** A request to this file's own gateway. */
const gateway = (path: string, opts: HttpOptions = {}) => request(gatewayUrl, path, opts);
let valid: TestWorkspace;
let lanes: TestWorkspace[];
let tokens: TestWorkspace[];
let ops: Operation[];
let sentCount = 0;

beforeAll(async () => {
  // The shared stack has every backend the document's routes reach (the publisher and webhooks included); this file's
  // thousands of requests go to a gateway of its own, so that the other files' requests never queue behind them.
  stack = await sharedStack();
  gatewayUrl = `http://${(await stack.startGateway()).address}`;
  const made = await Promise.all(Array.from({ length: 1 + LANES }, () => createWorkspace(stack)));
  valid = made[0]!;
  lanes = made.slice(1);
  tokens = await Promise.all(Array.from({ length: TOKENS }, () => createWorkspace(stack)));
  const doc = (await gateway('/api/v1/openapi.json', { localAddress: freshClientAddress() })).json as Json;
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

const describeSent = (s: Sent) =>
  `${s.method.toUpperCase()} ${s.url.slice(0, 300)}${s.headers ? ` headers=${JSON.stringify(s.headers).slice(0, 200)}` : ''}${s.body === undefined ? '' : ` body=${JSON.stringify(s.body)?.slice(0, 300)}`}`;

async function send(op: Operation, s: Sent, token: string): Promise<HttpResponse> {
  const octets = op.body?.type === 'application/octet-stream';
  const body = s.body === undefined ? undefined : s.body instanceof RawJson ? s.body.text : octets ? String(s.body) : JSON.stringify(s.body);
  sentCount++;
  return gateway(s.url, {
    method: s.method.toUpperCase(),
    token: op.security ? token : undefined,
    body,
    headers: { ...(octets ? { 'content-type': 'application/octet-stream' } : {}), ...s.headers },
    localAddress: freshClientAddress(),
  });
}

/**
 * The answer to a request, sent again (up to twice, a moment apart) while it is 503 SERVICE_UNAVAILABLE: a backend that
 * missed the gateway's deadline on a loaded machine says nothing of the input, but a 503 that stays is reported.
 */
async function answer(op: Operation, s: Sent, token: string): Promise<HttpResponse> {
  let res = await send(op, s, token);
  for (let retry = 1; res.status === 503 && retry <= 2; retry++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000 * retry));
    res = await send(op, s, token);
  }
  return res;
}

/** What is wrong with an answer: a 5xx, or an error outside the envelope or with a status its code does not map to. */
function problemOf(res: HttpResponse, s: Sent): string | undefined {
  const where = `${describeSent(s)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) return `5xx: ${where}`;
  if (res.status < 400 || s.method === 'head') return undefined;
  const json = res.json as { error?: { message?: unknown; code?: unknown } } | undefined;
  if (!json || typeof json !== 'object' || Object.keys(json).join() !== 'error') return `not the envelope: ${where}`;
  if (typeof json.error?.message !== 'string' || typeof json.error.code !== 'string') return `envelope without message or code: ${where}`;
  const mapped = (ERROR_TABLE as Record<string, { http: number }>)[json.error.code];
  if (mapped && mapped.http !== res.status) return `${json.error.code} answered with ${res.status}: ${where}`;
  return undefined;
}

/** No 5xx; every error in the envelope, with the status its code maps to. */
function expectWellFormed(res: HttpResponse, s: Sent): void {
  expect(problemOf(res, s)).toBeUndefined();
}

/** Everything the workspace holds, as the document's parameterless collection GETs show it. */
async function snapshot(collections: Operation[], token: string): Promise<string> {
  const answers = await Promise.all(collections.map(async (op) => [op.path, (await send(op, { url: urlOf(op, { query: {} }), method: 'get' }, token)).text]));
  return JSON.stringify(answers);
}

/** The collections whose answer is the same on two reads (a computed `updated_at` is not). */
async function stableCollections(token: string): Promise<Operation[]> {
  const collections = ops.filter((op) => op.method === 'get' && op.security && !op.parameters.some((p) => p.in === 'path' || p.required) && op.server === '/api/v1');
  const read = async (op: Operation) => send(op, { url: urlOf(op, { query: {} }), method: 'get' }, token);
  const probe = await Promise.all(collections.map(async (op) => [op, await read(op), await read(op)] as const));
  return probe.filter(([, a, b]) => a.status === 200 && a.text === b.text).map(([op]) => op);
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
  if (queryNames.length) {
    const value = fc.oneof(fc.constantFrom(...HOSTILE_QUERY), fc.string({ unit: 'binary', maxLength: 30 }));
    options.push(fc.record({ kind: fc.constant('query' as const), name: fc.constantFrom(...queryNames), value }));
  }
  if (op.body) {
    const fields = fieldPaths(op.body.example);
    if (fields.length) options.push(fc.record({ kind: fc.constant('field' as const), path: fc.constantFrom(...fields), value: anyJson }));
    options.push(fc.record({ kind: fc.constant('body' as const), value: fc.oneof(fc.constantFrom(...HOSTILE_JSON, deeplyNested(5000), deeplyNested(100_000)), bodyLike(op.body.example)) }));
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

/** `n` variants of an operation, the same on every run (the seed and the operation decide). */
function sample(op: Operation, n: number): Variant[] {
  let salt = 0;
  for (const c of op.operationId) salt = (salt * 31 + c.charCodeAt(0)) | 0;
  return fc.sample(variants(op), { seed: SEED ^ salt, numRuns: n });
}

/** Runs `work` over `items`, `width` at a time. */
async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('answers the schema values of every operation without a 5xx, errors in the envelope', async () => {
    expect(ops.length).toBeGreaterThan(50);
    for (const op of ops) {
      const s: Sent = { url: urlOf(op), method: op.method, ...(op.body ? { body: op.body.example } : {}) };
      expectWellFormed(await answer(op, s, valid.apiKey), s);
    }
  });

  it('stores nothing for a refused write', { timeout: 120_000 }, async () => {
    const writes = ops.filter((op) => WRITES.has(op.method) && op.security);
    await Promise.all(
      lanes.map(async (lane, i) => {
        const stable = await stableCollections(lane.apiKey);
        expect(stable.map((op) => op.path)).toContain('/posts');
        for (const op of writes.filter((_, j) => j % LANES === i)) {
          for (const v of sample(op, VARIANTS_PER_WRITE)) {
            const s = sentFor(op, v);
            const before = await snapshot(stable, lane.apiKey);
            const res = await send(op, s, lane.apiKey);
            // A backend that missed its deadline (a loaded machine) may still have done the work: not a refusal.
            if (res.status === 503) continue;
            expectWellFormed(res, s);
            if (res.status >= 400) expect(await snapshot(stable, lane.apiKey), `refused ${describeSent(s)} changed the workspace`).toBe(before);
          }
        }
      }),
    );
  });

  it(`answers hostile and random requests over every operation without a 5xx, errors in the envelope, ${TOTAL_REQUESTS.toLocaleString('en')} in all`, { timeout: 240_000 }, async () => {
    const bulk = TOTAL_REQUESTS - sentCount;
    // An operation with a bucket of its own gets what the tokens' buckets hold (a 429 says nothing of its input); the others share the rest.
    const bucketed = ops.filter((op) => op.bucketPoints !== undefined);
    const capped = new Map(bucketed.map((op) => [op, Math.max(1, Math.floor((op.bucketPoints! * TOKENS) / 2))]));
    const cappedTotal = [...capped.values()].reduce((a, b) => a + b, 0);
    const each = Math.ceil((bulk - cappedTotal) / (ops.length - bucketed.length));
    const requests = ops.flatMap((op) => sample(op, capped.get(op) ?? each).map((v, i) => ({ op, s: sentFor(op, v), token: tokens[i % TOKENS]!.apiKey })));
    // Interleaved, so that slow operations do not hold every lane at once.
    const order = fc.sample(
      fc.shuffledSubarray(
        requests.map((_, i) => i),
        { minLength: requests.length, maxLength: requests.length },
      ),
      { seed: SEED, numRuns: 1 },
    )[0]!;
    const problems: string[] = [];
    const before = sentCount;
    const started = Date.now();
    const timeByOp = new Map<string, number>();
    await inPool(order, CONCURRENCY, async (i) => {
      const { op, s, token } = requests[i]!;
      const t0 = Date.now();
      const res = await answer(op, s, token).catch((err: unknown) => ({ status: 0, text: String(err), json: undefined, headers: {} }));
      timeByOp.set(`${op.method} ${op.path}`, (timeByOp.get(`${op.method} ${op.path}`) ?? 0) + Date.now() - t0);
      const problem = res.status === 0 ? `no answer: ${describeSent(s)}: ${res.text}` : problemOf(res, s);
      if (problem) problems.push(problem);
    });
    const slowest = [...timeByOp].sort(([, a], [, b]) => b - a).slice(0, 8);
    console.log(
      `fuzz: ${sentCount - before} requests in ${Date.now() - started} ms over ${ops.length} operations; ${sentCount} in the file; most time: ${slowest.map(([k, ms]) => `${k} ${ms} ms`).join(', ')}`,
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(sentCount).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
  });
});

/** One raw HTTP exchange, for what no HTTP client sends. */
function raw(request: string): Promise<{ status: number; body: string }> {
  const url = new URL(gatewayUrl);
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
    const longUrl = await gateway(`/api/v1/posts?status=${'a'.repeat(20_000)}`, { token: valid.apiKey, localAddress: freshClientAddress() });
    expect([longUrl.status, longUrl.json?.error?.code]).toEqual([431, 'REQUEST_HEADERS_TOO_LARGE']);
    const bigHeader = await gateway('/api/v1/posts', { token: valid.apiKey, headers: { 'x-padding': 'p'.repeat(20_000) }, localAddress: freshClientAddress() });
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
    const res = await fetch(`${gatewayUrl}/api/v1/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});
