import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSender } from './http-sender.js';

/** A local receiver whose behaviour is chosen by the request path. */
let server: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    if (req.url === '/slow-4900') setTimeout(() => res.writeHead(200).end('ok'), 4_900);
    else if (req.url === '/slow-5100') setTimeout(() => res.writeHead(200).end('ok'), 5_100);
    else if (req.url === '/redirect') res.writeHead(301, { location: `http://127.0.0.1:${port}/target` }).end();
    else if (req.url === '/reset') req.socket.destroy();
    else if (req.url === '/500') res.writeHead(500).end('no');
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (path: string, host = '127.0.0.1') =>
  httpSender.post({
    url: new URL(`http://${host}:${port}${path}`),
    address: { address: '127.0.0.1', family: 4 },
    body: '{"id":"x"}',
    headers: { 'content-type': 'application/json' },
    timeoutMs: 5_000,
  });

describe('HTTP sender (real local receivers)', () => {
  it('4.9 s answer succeeds, 5.1 s fails, 301 fails and is not followed, a reset fails, 500 fails', async () => {
    const [ok, slow, redirect, reset, error] = await Promise.all([post('/slow-4900'), post('/slow-5100'), post('/redirect'), post('/reset'), post('/500')]);
    expect(ok).toMatchObject({ ok: true, statusCode: 200 });
    expect(slow).toMatchObject({ ok: false, error: 'no answer within 5000 ms' });
    expect(slow.durationMs).toBeLessThan(5_100);
    expect(redirect).toMatchObject({ ok: false, statusCode: 301 });
    expect(hits).not.toContain('/target');
    expect(reset).toMatchObject({ ok: false, error: expect.stringMatching(/ECONNRESET|socket hang up/) });
    expect(error).toMatchObject({ ok: false, statusCode: 500, error: 'HTTP 500' });
  }, 15_000);

  it('keeps one connection for attempts one after another, and retries once on a new one when a reused connection is closed', async () => {
    let opened = 0;
    let open = 0;
    const keeping = http.createServer((req, res) => {
      req.resume();
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      // The second request on a connection finds it closed, as when a receiver drops an idle one.
      if (req.url === '/drop-second' && socket.served === 2) return socket.destroy();
      res.writeHead(204).end();
    });
    keeping.on('connection', (socket) => {
      opened++;
      open++;
      socket.on('close', () => open--);
    });
    await new Promise<void>((resolve) => keeping.listen(0, '127.0.0.1', resolve));
    const to = (path: string) =>
      httpSender.post({ url: new URL(`http://127.0.0.1:${(keeping.address() as AddressInfo).port}${path}`), address: { address: '127.0.0.1', family: 4 }, body: '{}', headers: {}, timeoutMs: 5_000 });
    try {
      for (let i = 0; i < 3; i++) expect(await to('/ok')).toMatchObject({ ok: true, statusCode: 204 });
      expect(opened).toBe(1);
      keeping.closeIdleConnections();
      await expect.poll(() => open, { timeout: 2_000 }).toBe(0);
      expect(await to('/drop-second')).toMatchObject({ ok: true, statusCode: 204 }); // a new connection (the idle one was closed)
      expect(await to('/drop-second')).toMatchObject({ ok: true, statusCode: 204 }); // reused, dropped, sent again on a new one
      expect(opened).toBe(3);
    } finally {
      keeping.closeAllConnections();
      await new Promise((resolve) => keeping.close(resolve));
    }
  });

  it('connects to the pinned address whatever the name (no second DNS query)', async () => {
    expect(await post('/ok', 'does-not-exist.invalid')).toMatchObject({ ok: true, statusCode: 204 });
  });
});
