/** Signing with rotated secrets, private targets refused (at creation and at send time), management limits (real store, real HTTP). */
import net, { type AddressInfo } from 'node:net';
import { AppError } from '@spa/errors';
import { EVENT_KINDS } from '@spa/vocabulary';
import { verifySignature } from '@spa/webhook-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook, rotateSecret } from '../domain/manage-webhooks.js';
import { dispatcherHarness, S, T0 } from '../../../../tests/support/webhooks-dispatcher.js';

const fx = dispatcherHarness();

describe('secret rotation', () => {
  it('signs with the new and the old secret (v1=new,v1=old) for 24 h, then with the new one only', async () => {
    const workspaceId = fx.nextWorkspace++;
    fx.answer = 200;
    const { webhook, secret: oldSecret } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const { secret: newSecret } = await rotateSecret(fx.deps, webhook.id, workspaceId);
    expect(newSecret).not.toBe(oldSecret);
    await fx.record(fx.terminal(workspaceId, 'posted'));
    await fx.runAt(T0);
    const header = fx.hits[0]!.headers['x-service-signature'] as string;
    expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const at = { nowSeconds: T0 / S };
    expect(verifySignature(fx.hits[0]!.body, header, newSecret, at).valid).toBe(true);
    expect(verifySignature(fx.hits[0]!.body, header, oldSecret, at).valid).toBe(true);
    const [, first] = header.split(',');
    expect(verifySignature(fx.hits[0]!.body, `t=${T0 / S},${first}`, newSecret, at).valid).toBe(true);

    fx.clock.set(T0 + 24 * 3600 * S + S);
    await fx.record(fx.terminal(workspaceId, 'posted'));
    await fx.runAt(fx.clock.t);
    const later = fx.hits[1]!.headers['x-service-signature'] as string;
    expect(later).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(verifySignature(fx.hits[1]!.body, later, newSecret, { nowSeconds: Math.floor(fx.clock.t / S) }).valid).toBe(true);
    expect(verifySignature(fx.hits[1]!.body, later, oldSecret, { nowSeconds: Math.floor(fx.clock.t / S) }).valid).toBe(false);
  });

  it('stores secrets encrypted, never in plain text', async () => {
    const workspaceId = fx.nextWorkspace++;
    const { webhook, secret } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const raw = JSON.stringify(await fx.store.models.Webhook.findById(webhook.id).lean());
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain(secret.slice(6));
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
    const strict = fx.makeDeps(false);
    fx.resolverAnswers = { 'internal.example': [{ address: '10.1.2.3', family: 4 }] };
    const workspaceId = fx.nextWorkspace++;
    for (const url of forbidden()) {
      const err = await createWebhook(strict, { workspaceId, url, events: [] }).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(AppError);
      expect(err, url).toMatchObject({ code: 'INVALID_PARAMETERS', details: [expect.stringMatching(/^url /)] });
    }
    expect(await fx.store.listWebhooks(workspaceId)).toHaveLength(0);

    // Stored while allowed (or, for the name, while it resolved to a public address): refused at send time.
    const sendWorkspace = fx.nextWorkspace++;
    fx.resolverAnswers = { 'internal.example': [{ address: '93.184.216.34', family: 4 }] };
    const created = await createWebhook(strict, { workspaceId: sendWorkspace, url: `https://internal.example:${trapPort}/`, events: [] });
    fx.resolverAnswers = { 'internal.example': [{ address: '127.0.0.1', family: 4 }] };
    const strictDispatcher = fx.newDispatcher(strict, { concurrency: 64, perWebhook: 64 });
    const others = forbidden().slice(0, -1);
    for (const [i, url] of others.entries()) {
      const ws = sendWorkspace + 1 + i;
      fx.nextWorkspace = Math.max(fx.nextWorkspace, ws + 1);
      await createWebhook(fx.deps, { workspaceId: ws, url, events: [] });
      await fx.record(fx.terminal(ws), undefined, strict);
    }
    await fx.record(fx.terminal(sendWorkspace), undefined, strict);
    fx.clock.set(T0);
    await strictDispatcher.pass();
    await strictDispatcher.settle();
    expect(fx.sent).toHaveLength(0);
    expect(connections).toBe(0);
    const [delivery] = await fx.store.listDeliveries(created.webhook.id, 1);
    expect(delivery).toMatchObject({ attempts: 1, lastError: 'url host resolves to a forbidden address (127.0.0.1)' });
  });

  it('accepts a name that does not resolve yet (checked when sending)', async () => {
    const strict = fx.makeDeps(false);
    const { webhook } = await createWebhook(strict, { workspaceId: fx.nextWorkspace++, url: 'https://not-yet.example/hook', events: [] });
    expect(webhook.url).toBe('https://not-yet.example/hook');
  });
});

describe('webhook management rules', () => {
  it('allows 5 webhooks per workspace; the 6th is INVALID_STATE, also under concurrent creates', async () => {
    const workspaceId = fx.nextWorkspace++;
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ code: 'INVALID_STATE', message: 'a workspace can have at most 5 webhooks (disabled ones count); delete one to add another' });
    }
    expect(await fx.store.listWebhooks(workspaceId)).toHaveLength(5);
  });

  it('names each bad field', async () => {
    const err = await createWebhook(fx.makeDeps(false), { workspaceId: 1, url: 'http://hooks.example.com', events: ['post.published', 'post.exploded'] }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: [`events[1] must be one of ${EVENT_KINDS.join(', ')} (got "post.exploded")`, 'url must use https'],
    });
  });
});
