import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedGet, UrlRefusedError, type GuardedGetOptions } from './guarded-get.js';

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/file') return void res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(Buffer.alloc(100, 1));
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/file' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/declared-large') return void res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
    if (req.url === '/chunked-large') {
      res.writeHead(200);
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500));
      return void res.end();
    }
    if (req.url === '/stall') return void res.writeHead(200).write('partial');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const local: GuardedGetOptions = { allowPrivate: true, timeoutMs: 2_000, maxBytes: 1_000 };

async function read(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c);
  return Buffer.concat(chunks);
}

async function refusal(promise: Promise<unknown>): Promise<UrlRefusedError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UrlRefusedError);
  return err as UrlRefusedError;
}

describe('guardedGet', () => {
  it('refuses plain http, loopback and names resolving to private addresses unless private targets are allowed', async () => {
    const strict = { ...local, allowPrivate: false };
    expect((await refusal(guardedGet(`${base}/file`, strict))).message).toBe('url must use https');
    expect((await refusal(guardedGet('https://127.0.0.1/file', strict))).reason).toBe('url');
    const privateName = await refusal(guardedGet('https://files.example.test/file', { ...strict, resolve: async () => [{ address: '10.0.0.7', family: 4 }] }));
    expect(privateName.message).toBe('url host resolves to a forbidden address (10.0.0.7)');
    const mixed = await refusal(
      guardedGet('https://files.example.test/file', {
        ...strict,
        resolve: async () => [
          { address: '93.184.215.14', family: 4 },
          { address: '169.254.169.254', family: 4 },
        ],
      }),
    );
    expect(mixed.reason).toBe('address');
  });

  it('fetches the file with its type, following a redirect', async () => {
    const res = await guardedGet(`${base}/redirect`, local);
    expect(res.url.pathname).toBe('/file');
    expect(res.contentType).toBe('image/png');
    expect((await read(res.body)).length).toBe(100);
  });

  it('refuses too many redirects, an error status, a file over the limit (declared or streamed) and a stalled one', async () => {
    expect((await refusal(guardedGet(`${base}/loop`, local))).message).toBe('url redirected more than 3 times');
    expect((await refusal(guardedGet(`${base}/missing`, local))).message).toBe('url answered HTTP 404');
    expect((await refusal(guardedGet(`${base}/declared-large`, local))).reason).toBe('size');
    const streamed = await guardedGet(`${base}/chunked-large`, local);
    expect((await refusal(read(streamed.body))).reason).toBe('size');
    const stalled = await guardedGet(`${base}/stall`, { ...local, timeoutMs: 300 });
    expect((await refusal(read(stalled.body))).reason).toBe('timeout');
  });
});
