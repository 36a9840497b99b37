import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { AppError } from '@spa/errors';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { verifySignature } from '@spa/webhook-signature';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSecretBox, newWebhookSecret } from '../crypto/secret-box.js';
import { MongoWebhooksStore } from '../data/mongo-store.js';
import { redeliver, sendTestEvent } from '../domain/deliveries.js';
import { createWebhook, enableWebhook, rotateSecret } from '../domain/manage-webhooks.js';
import type { PostTerminalEvent } from '../domain/payload.js';
import type { OutboundRequest, ResolvedAddress, WebhooksDeps } from '../domain/ports.js';
import { recordPostTerminal } from '../domain/record-event.js';
import { Dispatcher } from './dispatcher.js';
import { httpSender } from './http-sender.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const S = 1_000;

let connection: Connection;
let store: MongoWebhooksStore;
let receiver: http.Server;
let receiverUrl: string;
/** The receiver's answer (status code) for the next requests. */
let answer = 500;
interface Hit {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}
let hits: Hit[] = [];

/** The injected clock: the tests move it; the dispatcher never waits on real timers. */
const clock = {
  t: T0,
  now: () => new Date(clock.t),
  set(ms: number) {
    clock.t = ms;
  },
};
let resolverAnswers: Record<string, ResolvedAddress[]> = {};
const sent: OutboundRequest[] = [];

function makeDeps(allowPrivate: boolean): WebhooksDeps {
  return {
    store,
    clock,
    resolver: {
      async resolve(host) {
        const found = resolverAnswers[host];
        if (!found) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
        return found;
      },
    },
    sender: {
      post: (req) => {
        sent.push(req);
        return httpSender.post(req);
      },
    },
    secrets: createSecretBox('test-secrets-key-of-at-least-32-characters'),
    newId: randomUUID,
    newSecret: newWebhookSecret,
    allowPrivate,
    instanceId: 'test',
  };
}
let deps: WebhooksDeps;
let dispatcher: Dispatcher;

/** Makes the dispatcher look for due work at the clock's time and waits until it is done. */
async function runAt(ms: number): Promise<void> {
  clock.set(ms);
  await dispatcher.pass();
  await dispatcher.settle();
}

let nextWorkspace = 700_000 + Math.floor(Math.random() * 99_999);
let nextPost = 1;
function terminal(workspaceId: number, status = 'failed'): PostTerminalEvent {
  return {
    sourceKey: `test-${randomUUID()}`,
    workspaceId,
    postId: nextPost++,
    status,
    occurredAt: clock.now(),
    platforms: [{ platform: 'bluesky', platformStatus: 'error', platformPostId: '', platformError: 'rate limited' }],
  };
}

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_webhooks_${randomBytes(4).toString('hex')}`);
  store = new MongoWebhooksStore(connection);
  await syncIndexes(connection);
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ at: clock.t, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(async () => {
  await store.models.Delivery.deleteMany({});
  hits = [];
  sent.length = 0;
  answer = 500;
  resolverAnswers = {};
  clock.set(T0);
  deps = makeDeps(true);
  dispatcher = new Dispatcher(deps, { concurrency: 64, perWebhook: 64 }, createLogger('dispatcher-test', 'silent'));
});

describe('first attempts start from the event (real store, real HTTP)', () => {
  it('attempts a delivery offered as the event is recorded, with no pass, once; its retry stays on the schedule', async () => {
    const workspaceId = nextWorkspace++;
    await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    clock.set(T0);
    const offered: string[] = [];
    expect(
      await recordPostTerminal(deps, terminal(workspaceId), (delivery, webhook) => {
        offered.push(delivery.id);
        dispatcher.offer(delivery, webhook);
      }),
    ).toBe(1);
    await dispatcher.settle();
    expect(hits).toHaveLength(1);
    expect(hits[0]?.headers['x-service-event-id']).toBe(offered[0]);
    // Offered again once attempted (its next attempt is scheduled later): nothing is sent before its time.
    dispatcher.offer((await store.getDelivery(offered[0]!))!, (await store.getWebhook((await store.getDelivery(offered[0]!))!.webhookId))!);
    await dispatcher.settle();
    expect(hits).toHaveLength(1);
    // The receiver failed (500): the second attempt comes from a pass at its scheduled time, as before.
    await runAt(T0 + 10 * S - 1);
    expect(hits).toHaveLength(1);
    await runAt(T0 + 10 * S);
    expect(hits).toHaveLength(2);
  });

  it('leaves an offered delivery for a pass when there is no room, and the pass sends it', async () => {
    const workspaceId = nextWorkspace++;
    await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    const full = new Dispatcher(deps, { concurrency: 0, perWebhook: 1 }, createLogger('dispatcher-test', 'silent'));
    await recordPostTerminal(deps, terminal(workspaceId), (delivery, webhook) => full.offer(delivery, webhook));
    await full.settle();
    expect(hits).toHaveLength(0);
    expect((await store.dueDeliveries(clock.now(), 10, [])).length).toBe(1);
    await runAt(T0);
    expect(hits).toHaveLength(1);
  });

  it('starts offered deliveries that waited for room as attempts end, oldest webhook first, with no pass', async () => {
    answer = 200;
    const [a, b] = [nextWorkspace++, nextWorkspace++];
    await createWebhook(deps, { workspaceId: a, url: `${receiverUrl}?a`, events: [] });
    await createWebhook(deps, { workspaceId: b, url: `${receiverUrl}?b`, events: [] });
    const one = new Dispatcher(deps, { concurrency: 1, perWebhook: 1 }, createLogger('dispatcher-test', 'silent'));
    const passes = vi.spyOn(store, 'dueDeliveries');
    const offer = (workspaceId: number) => recordPostTerminal(deps, terminal(workspaceId, 'posted'), (delivery, webhook) => one.offer(delivery, webhook));
    await Promise.all([offer(a), offer(a), offer(b)]);
    await one.settle();
    passes.mockRestore();
    expect(hits.map((h) => h.headers['x-service-attempt'])).toEqual(['1', '1', '1']);
    expect(new Set(hits.map((h) => JSON.parse(h.body).id)).size).toBe(3);
    expect(passes).not.toHaveBeenCalled();
  });
});

describe('retries on the injected clock (real store, real HTTP)', () => {
  it('gives a receiver that always fails exactly 7 attempts at 0, 10, 110, 1010, 4610, 11810, 22610 s, same id, attempt 1..7, each verifiable', async () => {
    const workspaceId = nextWorkspace++;
    const { webhook, secret } = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    clock.set(T0);
    expect(await recordPostTerminal(deps, terminal(workspaceId))).toBe(1);
    const offsets = [0, 10, 110, 1010, 4610, 11810, 22610];
    for (const [i, offset] of offsets.entries()) {
      if (offset > 0) {
        await runAt(T0 + offset * S - 1);
        expect(hits, `nothing before ${offset} s`).toHaveLength(i);
      }
      await runAt(T0 + offset * S);
      expect(hits, `attempt ${i + 1} at ${offset} s`).toHaveLength(i + 1);
    }
    await runAt(T0 + 30 * 24 * 3600 * S);
    expect(hits).toHaveLength(7);

    expect(hits.map((h) => (h.at - T0) / S)).toEqual(offsets);
    expect(hits.map((h) => h.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    const ids = new Set(hits.map((h) => h.headers['x-service-event-id']));
    expect(ids.size).toBe(1);
    for (const h of hits) {
      const body = JSON.parse(h.body) as { id: string };
      expect(body.id).toBe(h.headers['x-service-event-id']);
      expect(h.headers['x-service-signature']).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
      expect(verifySignature(h.body, h.headers['x-service-signature'] as string, secret, { nowSeconds: Math.floor(h.at / S) })).toMatchObject({ valid: true, timestamp: Math.floor(h.at / S) });
    }
    const [delivery] = await store.listDeliveries(webhook.id, 10);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 7, lastError: 'HTTP 500', lastStatusCode: 500 });
  });

  it('sends the exact contract payload', async () => {
    const workspaceId = nextWorkspace++;
    answer = 200;
    await createWebhook(deps, { workspaceId, url: receiverUrl, events: ['post.partial_failure'] });
    const event: PostTerminalEvent = {
      sourceKey: `test-${randomUUID()}`,
      workspaceId,
      postId: 42,
      status: 'partial',
      occurredAt: new Date('2026-03-01T10:00:00.000Z'),
      platforms: [
        { platform: 'twitter', platformStatus: 'posted', platformPostId: '123' },
        { platform: 'linkedin', platformStatus: 'error', platformPostId: '', platformError: 'token expired' },
      ],
    };
    await recordPostTerminal(deps, event);
    await recordPostTerminal(deps, { ...event, status: 'posted', sourceKey: `test-${randomUUID()}` }); // not subscribed
    await runAt(T0);
    expect(hits).toHaveLength(1);
    expect(JSON.parse(hits[0]!.body)).toEqual({
      id: hits[0]!.headers['x-service-event-id'],
      event: 'post.partial_failure',
      post_id: 42,
      occurred_at: '2026-03-01T10:00:00.000Z',
      data: {
        status: 'partial',
        platforms: [
          { platform: 'twitter', platform_status: 'posted', platform_post_id: '123', platform_error: null },
          { platform: 'linkedin', platform_status: 'error', platform_post_id: '', platform_error: 'token expired' },
        ],
        dry_run: false,
      },
    });
    expect(hits[0]!.headers['x-service-event-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('records an event once per webhook even when handled twice, and only for webhooks of its own workspace', async () => {
    const workspaceId = nextWorkspace++;
    const other = nextWorkspace++;
    const mine = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    const theirs = await createWebhook(deps, { workspaceId: other, url: receiverUrl, events: [] });
    const event = terminal(workspaceId);
    expect(await recordPostTerminal(deps, event)).toBe(1);
    expect(await recordPostTerminal(deps, event)).toBe(0);
    expect(await store.listDeliveries(mine.webhook.id, 10)).toHaveLength(1);
    expect(await store.listDeliveries(theirs.webhook.id, 10)).toHaveLength(0);
  });

  it('manual redelivery keeps the payload id and continues the attempt numbers; a test event is signed too', async () => {
    const workspaceId = nextWorkspace++;
    answer = 200;
    const { webhook, secret } = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    await recordPostTerminal(deps, terminal(workspaceId));
    await runAt(T0);
    const [delivery] = await store.listDeliveries(webhook.id, 1);
    await expect(redeliver(deps, delivery!.id, workspaceId + 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await redeliver(deps, delivery!.id, workspaceId);
    await expect(redeliver(deps, delivery!.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await runAt(T0 + S);
    expect(hits.map((h) => [h.headers['x-service-event-id'], h.headers['x-service-attempt']])).toEqual([
      [delivery!.id, '1'],
      [delivery!.id, '2'],
    ]);
    const test = await sendTestEvent(deps, webhook.id);
    await runAt(T0 + 2 * S);
    expect(JSON.parse(hits[2]!.body)).toMatchObject({ id: test.id, event: 'webhook.test', data: { status: 'test', platforms: [] } });
    expect(verifySignature(hits[2]!.body, hits[2]!.headers['x-service-signature'] as string, secret, { nowSeconds: (T0 + 2 * S) / S }).valid).toBe(true);
  });
});

describe('auto-disable', () => {
  /** Records `count` events and runs them through all 7 attempts; returns the time after. */
  async function exhaust(workspaceId: number, count: number, from: number): Promise<number> {
    clock.set(from);
    for (let i = 0; i < count; i++) await recordPostTerminal(deps, terminal(workspaceId));
    for (const offset of [0, 10, 110, 1010, 4610, 11810, 22610]) await runAt(from + offset * S);
    return from + 22_611 * S;
  }

  it('disables on the 10th exhausted event, not the 9th; then nothing more is sent until re-enabled', async () => {
    const workspaceId = nextWorkspace++;
    const { webhook } = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    let t = await exhaust(workspaceId, 9, T0);
    expect((await store.getWebhook(webhook.id))?.enabled).toBe(true);
    t = await exhaust(workspaceId, 1, t);
    expect(await store.getWebhook(webhook.id)).toMatchObject({ enabled: false, disabledReason: 'disabled automatically after 10 consecutive failed events' });

    hits = [];
    answer = 200;
    clock.set(t);
    expect(await recordPostTerminal(deps, terminal(workspaceId))).toBe(0);
    await runAt(t);
    expect(hits).toHaveLength(0);

    await enableWebhook(deps, webhook.id, workspaceId);
    expect(await recordPostTerminal(deps, terminal(workspaceId))).toBe(1);
    await runAt(t);
    expect(hits).toHaveLength(1);
  });

  it('a success in between resets the count', async () => {
    const workspaceId = nextWorkspace++;
    const { webhook } = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    let t = await exhaust(workspaceId, 9, T0);
    answer = 200;
    clock.set(t);
    await recordPostTerminal(deps, terminal(workspaceId));
    await runAt(t);
    answer = 500;
    t = await exhaust(workspaceId, 9, t + S);
    expect((await store.getWebhook(webhook.id))?.enabled).toBe(true);
    await exhaust(workspaceId, 1, t);
    expect((await store.getWebhook(webhook.id))?.enabled).toBe(false);
  }, 60_000);
});

describe('secret rotation', () => {
  it('signs with the new and the old secret (v1=new,v1=old) for 24 h, then with the new one only', async () => {
    const workspaceId = nextWorkspace++;
    answer = 200;
    const { webhook, secret: oldSecret } = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    const { secret: newSecret } = await rotateSecret(deps, webhook.id, workspaceId);
    expect(newSecret).not.toBe(oldSecret);
    await recordPostTerminal(deps, terminal(workspaceId, 'posted'));
    await runAt(T0);
    const header = hits[0]!.headers['x-service-signature'] as string;
    expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const at = { nowSeconds: T0 / S };
    expect(verifySignature(hits[0]!.body, header, newSecret, at).valid).toBe(true);
    expect(verifySignature(hits[0]!.body, header, oldSecret, at).valid).toBe(true);
    const [, first] = header.split(',');
    expect(verifySignature(hits[0]!.body, `t=${T0 / S},${first}`, newSecret, at).valid).toBe(true);

    clock.set(T0 + 24 * 3600 * S + S);
    await recordPostTerminal(deps, terminal(workspaceId, 'posted'));
    await runAt(clock.t);
    const later = hits[1]!.headers['x-service-signature'] as string;
    expect(later).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(verifySignature(hits[1]!.body, later, newSecret, { nowSeconds: Math.floor(clock.t / S) }).valid).toBe(true);
    expect(verifySignature(hits[1]!.body, later, oldSecret, { nowSeconds: Math.floor(clock.t / S) }).valid).toBe(false);
  });

  it('stores secrets encrypted, never in plain text', async () => {
    const workspaceId = nextWorkspace++;
    const { webhook, secret } = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    const raw = JSON.stringify(await store.models.Webhook.findById(webhook.id).lean());
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain(secret.slice(6));
  });
});

describe('a dispatcher that died mid-attempt', () => {
  it('loses no retry and does not repeat the attempt number', async () => {
    const workspaceId = nextWorkspace++;
    answer = 200;
    const { webhook } = await createWebhook(deps, { workspaceId, url: receiverUrl, events: [] });
    await recordPostTerminal(deps, terminal(workspaceId));
    const [delivery] = await store.listDeliveries(webhook.id, 1);
    // Another dispatcher claimed attempt 1 and died before moving the delivery on.
    await store.claimAttempt({ deliveryId: delivery!.id, attempt: 1, claimedAt: clock.now(), claimedBy: 'dead' });
    await runAt(T0 + 29 * S);
    expect(hits).toHaveLength(0);
    await runAt(T0 + 31 * S); // lease over: the delivery moves on to attempt 2, due 10 s after the lost attempt
    await runAt(T0 + 31 * S + 1);
    expect(hits.map((h) => h.headers['x-service-attempt'])).toEqual(['2']);
    expect((await store.getDelivery(delivery!.id))?.status).toBe('succeeded');
  });
});

describe('SSRF (private targets not allowed)', () => {
  let trap: net.Server;
  let trapPort: number;
  let connections = 0;
  beforeAll(async () => {
    trap = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapPort = (trap.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => trap.close(resolve));
  });

  const forbidden = () => [
    `https://127.0.0.1:${trapPort}/`,
    `https://[::1]:${trapPort}/`,
    `https://169.254.169.254:${trapPort}/`,
    `https://10.0.0.1:${trapPort}/`,
    `https://172.16.0.1:${trapPort}/`,
    `https://192.168.0.1:${trapPort}/`,
    `https://0177.0.0.1:${trapPort}/`,
    `https://2130706433:${trapPort}/`,
    `https://[::ffff:127.0.0.1]:${trapPort}/`,
    `https://internal.example:${trapPort}/`,
  ];

  it('refuses each address at creation, and never connects to one at send time (DNS rebinding included)', async () => {
    const strict = makeDeps(false);
    resolverAnswers = { 'internal.example': [{ address: '10.1.2.3', family: 4 }] };
    const workspaceId = nextWorkspace++;
    for (const url of forbidden()) {
      const err = await createWebhook(strict, { workspaceId, url, events: [] }).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(AppError);
      expect(err, url).toMatchObject({ code: 'INVALID_PARAMETERS', details: [expect.stringMatching(/^url /)] });
    }
    expect(await store.listWebhooks(workspaceId)).toHaveLength(0);

    // Stored while allowed (or, for the name, while it resolved to a public address): refused at send time.
    const sendWorkspace = nextWorkspace++;
    resolverAnswers = { 'internal.example': [{ address: '93.184.216.34', family: 4 }] };
    const created = await createWebhook(strict, { workspaceId: sendWorkspace, url: `https://internal.example:${trapPort}/`, events: [] });
    resolverAnswers = { 'internal.example': [{ address: '127.0.0.1', family: 4 }] };
    const strictDispatcher = new Dispatcher(strict, { concurrency: 64, perWebhook: 64 }, createLogger('dispatcher-test', 'silent'));
    const others = forbidden().slice(0, -1);
    for (const [i, url] of others.entries()) {
      const ws = sendWorkspace + 1 + i;
      nextWorkspace = Math.max(nextWorkspace, ws + 1);
      await createWebhook(deps, { workspaceId: ws, url, events: [] });
      await recordPostTerminal(strict, terminal(ws));
    }
    await recordPostTerminal(strict, terminal(sendWorkspace));
    clock.set(T0);
    await strictDispatcher.pass();
    await strictDispatcher.settle();
    expect(sent).toHaveLength(0);
    expect(connections).toBe(0);
    const [delivery] = await store.listDeliveries(created.webhook.id, 1);
    expect(delivery).toMatchObject({ attempts: 1, lastError: 'url host resolves to a forbidden address (127.0.0.1)' });
  });

  it('accepts a name that does not resolve yet (checked when sending)', async () => {
    const strict = makeDeps(false);
    const { webhook } = await createWebhook(strict, { workspaceId: nextWorkspace++, url: 'https://not-yet.example/hook', events: [] });
    expect(webhook.url).toBe('https://not-yet.example/hook');
  });
});

describe('webhook management rules', () => {
  it('allows 5 webhooks per workspace; the 6th is INVALID_STATE, also under concurrent creates', async () => {
    const workspaceId = nextWorkspace++;
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => createWebhook(deps, { workspaceId, url: receiverUrl, events: [] })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ code: 'INVALID_STATE', message: 'a workspace can have at most 5 webhooks' });
    }
    expect(await store.listWebhooks(workspaceId)).toHaveLength(5);
  });

  it('names each bad field', async () => {
    const err = await createWebhook(makeDeps(false), { workspaceId: 1, url: 'http://hooks.example.com', events: ['post.published', 'post.deleted'] }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: ['events[1] must be one of post.published, post.failed, post.partial_failure (got "post.deleted")', 'url must use https'],
    });
  });
});
