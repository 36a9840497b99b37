import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { connectNats, jetstream, publishEvent, type NatsConnection } from '@spa/nats';
import { dropDatabases, runAdmin, startProcess, TEST_INFRA, uniqueName, type RunningProcess } from '@spa/testing';
import { verifySignature } from '@spa/webhook-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The real webhooks process against the real store and NATS, driven through the admin CLI and JetStream events. */
let webhooks: RunningProcess;
let nc: NatsConnection;
let receiver: http.Server;
let receiverUrl: string;
const db = uniqueName('t_webhooks');
const consumer = uniqueName('t_webhooks_consumer');
interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const hits: Hit[] = [];

const admin = (args: string[]) => runAdmin(args, { WEBHOOKS_ADDR: webhooks.address });
async function ok(...args: string[]): Promise<Record<string, any>> {
  const res = await admin(args);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Record<string, any>;
}

let workspace = 800_000 + Math.floor(Math.random() * 99_999);

async function publishTerminal(workspaceId: number, postId: number, status: string, msgId = uniqueName('terminal')): Promise<void> {
  const payload = PostTerminal.encode({
    workspaceId,
    postId,
    status,
    occurredAt: '2026-03-01T10:00:00.000Z',
    platforms: [
      {
        postAccountId: postId * 10,
        socialAccountId: 1,
        platform: 'twitter',
        platformStatus: status === 'posted' ? 'posted' : 'error',
        platformPostId: status === 'posted' ? '99' : '',
        platformError: status === 'posted' ? undefined : 'boom',
      },
    ],
  }).finish();
  await publishEvent(jetstream(nc), 'posts.post.terminal', payload, msgId);
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(req.url?.startsWith('/fail') ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  nc = await connectNats(TEST_INFRA.natsUrl, 'webhooks-e2e');
  webhooks = await startProcess('webhooks', 'services/webhooks/dist/main.js', {
    MONGO_URL: TEST_INFRA.mongoUrl,
    NATS_URL: TEST_INFRA.natsUrl,
    MONGO_DB: db,
    GRPC_PORT: '0',
    SECRETS_KEY: 'e2e-secrets-key-with-more-than-32-characters',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_CONSUMER: consumer,
    WEBHOOKS_POLL_INTERVAL_MS: '200',
  });
});
afterAll(async () => {
  await webhooks?.stop();
  await (await jetstreamManager(nc)).consumers.delete('POSTS', consumer).catch(() => undefined);
  await nc?.drain();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await dropDatabases([db]);
});

describe('webhooks service (real process, admin CLI, JetStream)', () => {
  it('manages webhooks through spa-admin: create (secret once), list, limits, disable/enable, rotate-secret, test, deliveries, redeliver', async () => {
    const W = String(workspace++);
    const created = await ok('webhook', 'create', '--workspace', W, '--url', `${receiverUrl}/cli`, '--events', 'post.published,post.failed');
    expect(Object.keys(created)).toEqual(['webhook_id', 'secret']);
    expect(created.secret).toMatch(/^whsec_[\w-]{43}$/);
    const id = String(created.webhook_id);

    const list = await ok('webhook', 'list', '--workspace', W);
    expect(list.webhooks).toEqual([expect.objectContaining({ webhook_id: created.webhook_id, url: `${receiverUrl}/cli`, events: ['post.published', 'post.failed'], enabled: true })]);
    expect(JSON.stringify(list)).not.toContain(created.secret);

    const badEvents = await admin(['webhook', 'create', '--workspace', W, '--url', `${receiverUrl}/x`, '--events', 'post.exploded']);
    expect(badEvents.code).toBe(1);
    expect(badEvents.stderr).toContain('INVALID_PARAMETERS');
    expect(badEvents.stderr).toContain('events[0] must be one of');
    const badUrl = await admin(['webhook', 'create', '--workspace', W, '--url', 'ftp://example.com/']);
    expect(badUrl.stderr).toContain('url must use https');
    for (let i = 0; i < 4; i++) await ok('webhook', 'create', '--workspace', W, '--url', `${receiverUrl}/more${i}`);
    const sixth = await admin(['webhook', 'create', '--workspace', W, '--url', `${receiverUrl}/sixth`]);
    expect(sixth.code).toBe(1);
    expect(sixth.stderr).toContain('INVALID_STATE: a workspace can have at most 5 webhooks');
    const usage = await admin(['webhook', 'disable']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--webhook is required');
    const missing = await admin(['webhook', 'disable', '--webhook', '999999999']);
    expect(missing.stderr).toContain('NOT_FOUND');

    expect(await ok('webhook', 'disable', '--webhook', id)).toMatchObject({ enabled: false, disabled_reason: 'disabled by an operator' });
    expect(await ok('webhook', 'enable', '--webhook', id)).toMatchObject({ enabled: true, disabled_reason: null });
    const rotated = await ok('webhook', 'rotate-secret', '--webhook', id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    const test = await ok('webhook', 'test', '--webhook', id);
    expect(test).toMatchObject({ event: 'webhook.test', status: 'scheduled', attempts: 0 });
    await expect.poll(() => hits.filter((h) => h.headers['x-service-event-id'] === test.delivery_id).length, { timeout: 10_000 }).toBe(1);
    const hit = hits.find((h) => h.headers['x-service-event-id'] === test.delivery_id)!;
    const header = hit.headers['x-service-signature'] as string;
    expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifySignature(hit.body, header, rotated.secret).valid).toBe(true);
    expect(verifySignature(hit.body, header, created.secret).valid).toBe(true);
    expect(JSON.parse(hit.body)).toMatchObject({ id: test.delivery_id, event: 'webhook.test' });

    await expect.poll(async () => (await ok('webhook', 'deliveries', '--webhook', id)).deliveries[0]?.status, { timeout: 10_000 }).toBe('succeeded');
    const again = await ok('webhook', 'redeliver', '--delivery', test.delivery_id);
    expect(again).toMatchObject({ delivery_id: test.delivery_id, status: 'scheduled', attempts: 1 });
    await expect.poll(() => hits.filter((h) => h.headers['x-service-event-id'] === test.delivery_id).map((h) => h.headers['x-service-attempt']), { timeout: 10_000 }).toEqual(['1', '2']);
  });

  it('deletes a webhook through spa-admin: gone with its log, its place among the 5 free again; a disabled one still counts', async () => {
    const W = String(workspace++);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(String((await ok('webhook', 'create', '--workspace', W, '--url', `${receiverUrl}/del${i}`)).webhook_id));
    await ok('webhook', 'disable', '--webhook', ids[0]!);
    const full = await admin(['webhook', 'create', '--workspace', W, '--url', `${receiverUrl}/sixth`]);
    expect(full.code).toBe(1);
    expect(full.stderr).toContain('at most 5 webhooks (disabled ones count); delete one to add another');

    const test = await ok('webhook', 'test', '--webhook', ids[0]!);
    expect(test.event).toBe('webhook.test');
    const deleted = await ok('webhook', 'delete', '--webhook', ids[0]!);
    expect(deleted.deleted).toMatchObject({ webhook_id: Number(ids[0]), url: `${receiverUrl}/del0`, enabled: false });
    expect((await ok('webhook', 'list', '--workspace', W)).webhooks.map((w: { webhook_id: number }) => String(w.webhook_id))).toEqual(ids.slice(1));
    for (const args of [
      ['webhook', 'delete', '--webhook', ids[0]!],
      ['webhook', 'deliveries', '--webhook', ids[0]!],
      ['webhook', 'redeliver', '--delivery', test.delivery_id as string],
    ]) {
      const gone = await admin(args);
      expect(gone.code, args.join(' ')).toBe(1);
      expect(gone.stderr).toContain('NOT_FOUND');
    }
    const sixth = await ok('webhook', 'create', '--workspace', W, '--url', `${receiverUrl}/sixth`);
    expect(sixth.webhook_id).toBeGreaterThan(0);
    const usage = await admin(['webhook', 'delete']);
    expect([usage.code, usage.stderr.includes('--webhook is required')]).toEqual([2, true]);
  });

  it("turns posts.post.terminal events into signed deliveries, only to the post's own workspace and subscribed kinds", async () => {
    const A = workspace++;
    const B = workspace++;
    const a = await ok('webhook', 'create', '--workspace', String(A), '--url', `${receiverUrl}/a`);
    await ok('webhook', 'create', '--workspace', String(B), '--url', `${receiverUrl}/b`, '--events', 'post.failed');
    const msgId = uniqueName('terminal');
    await publishTerminal(A, 101, 'posted', msgId);
    await publishTerminal(A, 101, 'posted', msgId); // a repeat of the same event
    await publishTerminal(A, 102, 'partial');
    await publishTerminal(B, 201, 'posted'); // B does not subscribe to post.published
    await expect.poll(() => hits.filter((h) => h.path === '/a').length, { timeout: 10_000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(hits.filter((h) => h.path === '/b')).toHaveLength(0);
    const bodies = hits
      .filter((h) => h.path === '/a')
      .map((h) => {
        expect(verifySignature(h.body, h.headers['x-service-signature'] as string, a.secret).valid).toBe(true);
        expect(h.headers['x-service-attempt']).toBe('1');
        return JSON.parse(h.body) as Record<string, unknown>;
      });
    expect(bodies.map((b) => [b.event, b.post_id]).sort()).toEqual([
      ['post.partial_failure', 102],
      ['post.published', 101],
    ]);
    expect(bodies.find((b) => b.post_id === 101)).toEqual({
      id: expect.any(String),
      // The event's id in the event log (GET /events); the same for every webhook the event reaches.
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'post.published',
      post_id: 101,
      occurred_at: '2026-03-01T10:00:00.000Z',
      // data.dry_run is always present (true only for dry-run posts).
      data: { status: 'posted', dry_run: false, platforms: [{ platform: 'twitter', platform_status: 'posted', platform_post_id: '99', platform_error: null }] },
    });
  });

  it('keeps a failed delivery scheduled for its retry 10 s later, with its last error in the log', async () => {
    const W = workspace++;
    const f = await ok('webhook', 'create', '--workspace', String(W), '--url', `${receiverUrl}/fail`);
    await publishTerminal(W, 301, 'failed');
    await expect.poll(async () => (await ok('webhook', 'deliveries', '--webhook', String(f.webhook_id))).deliveries[0]?.attempts ?? 0, { timeout: 10_000 }).toBe(1);
    const [d] = (await ok('webhook', 'deliveries', '--webhook', String(f.webhook_id))).deliveries;
    expect(d).toMatchObject({ event: 'post.failed', status: 'scheduled', attempts: 1, last_error: 'HTTP 503' });
    const wait = Date.parse(d.next_attempt_at) - Date.parse(d.created_at);
    expect(wait).toBeGreaterThanOrEqual(10_000);
    expect(wait).toBeLessThan(12_000);
  });
});
