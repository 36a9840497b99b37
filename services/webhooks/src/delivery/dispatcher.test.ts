/** The retry schedule, auto-disable and recovery from a dispatcher that died (real store, real HTTP, injected clock). */
import { randomUUID } from 'node:crypto';
import { verifySignature } from '@spa/webhook-signature';
import { describe, expect, it } from 'vitest';
import { redeliver, sendTestEvent } from '../domain/deliveries.js';
import { deliveryIdOf } from '../domain/record-event.js';
import { createWebhook, enableWebhook } from '../domain/manage-webhooks.js';
import type { PostTerminalEvent } from '../domain/payload.js';
import { dispatcherHarness, S, T0 } from '../../../../tests/support/webhooks-dispatcher.js';

const fx = dispatcherHarness();

describe('retries on the injected clock (real store, real HTTP)', () => {
  it('gives a receiver that always fails exactly 7 attempts at 0, 10, 110, 1010, 4610, 11810, 22610 s, same id, attempt 1..7, each verifiable', async () => {
    const workspaceId = fx.nextWorkspace++;
    const { webhook, secret } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    fx.clock.set(T0);
    expect(await fx.record(fx.terminal(workspaceId))).toBe(1);
    const offsets = [0, 10, 110, 1010, 4610, 11810, 22610];
    for (const [i, offset] of offsets.entries()) {
      if (offset > 0) {
        await fx.runAt(T0 + offset * S - 1);
        expect(fx.hits, `nothing before ${offset} s`).toHaveLength(i);
      }
      await fx.runAt(T0 + offset * S);
      expect(fx.hits, `attempt ${i + 1} at ${offset} s`).toHaveLength(i + 1);
    }
    await fx.runAt(T0 + 30 * 24 * 3600 * S);
    expect(fx.hits).toHaveLength(7);

    expect(fx.hits.map((h) => (h.at - T0) / S)).toEqual(offsets);
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    const ids = new Set(fx.hits.map((h) => h.headers['x-service-event-id']));
    expect(ids.size).toBe(1);
    for (const h of fx.hits) {
      const body = JSON.parse(h.body) as { id: string };
      expect(body.id).toBe(h.headers['x-service-event-id']);
      expect(h.headers['x-service-signature']).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
      expect(verifySignature(h.body, h.headers['x-service-signature'] as string, secret, { nowSeconds: Math.floor(h.at / S) })).toMatchObject({ valid: true, timestamp: Math.floor(h.at / S) });
    }
    const [delivery] = await fx.store.listDeliveries(webhook.id, 10);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 7, lastError: 'HTTP 500', lastStatusCode: 500 });
  });

  it('sends the exact contract payload', async () => {
    const workspaceId = fx.nextWorkspace++;
    fx.answer = 200;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: ['post.partial_failure'] });
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
    await fx.record(event);
    await fx.record({ ...event, status: 'posted', sourceKey: `test-${randomUUID()}` }); // not subscribed
    await fx.runAt(T0);
    expect(fx.hits).toHaveLength(1);
    expect(JSON.parse(fx.hits[0]!.body)).toEqual({
      id: fx.hits[0]!.headers['x-service-event-id'],
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
    // A UUID (version 5) of the webhook and the source event: the same however often the event is handled.
    expect(fx.hits[0]!.headers['x-service-event-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fx.hits[0]!.headers['x-service-event-id']).toBe(deliveryIdOf(webhook.id, event.sourceKey));
  });

  it('records an event once per webhook even when handled twice, and only for webhooks of its own workspace', async () => {
    const workspaceId = fx.nextWorkspace++;
    const other = fx.nextWorkspace++;
    const mine = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const theirs = await createWebhook(fx.deps, { workspaceId: other, url: fx.receiverUrl, events: [] });
    const event = fx.terminal(workspaceId);
    expect(await fx.record(event)).toBe(1);
    expect(await fx.record(event)).toBe(0);
    expect(await fx.store.listDeliveries(mine.webhook.id, 10)).toHaveLength(1);
    expect(await fx.store.listDeliveries(theirs.webhook.id, 10)).toHaveLength(0);
  });

  it('manual redelivery keeps the payload id and continues the attempt numbers; a test event is signed too', async () => {
    const workspaceId = fx.nextWorkspace++;
    fx.answer = 200;
    const { webhook, secret } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    await fx.record(fx.terminal(workspaceId));
    await fx.runAt(T0);
    const [delivery] = await fx.store.listDeliveries(webhook.id, 1);
    await expect(redeliver(fx.deps, delivery!.id, workspaceId + 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await redeliver(fx.deps, delivery!.id, workspaceId);
    await expect(redeliver(fx.deps, delivery!.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await fx.runAt(T0 + S);
    expect(fx.hits.map((h) => [h.headers['x-service-event-id'], h.headers['x-service-attempt']])).toEqual([
      [delivery!.id, '1'],
      [delivery!.id, '2'],
    ]);
    const test = await sendTestEvent(fx.deps, webhook.id);
    await fx.runAt(T0 + 2 * S);
    expect(JSON.parse(fx.hits[2]!.body)).toMatchObject({ id: test.id, event: 'webhook.test', data: { status: 'test', platforms: [] } });
    expect(verifySignature(fx.hits[2]!.body, fx.hits[2]!.headers['x-service-signature'] as string, secret, { nowSeconds: (T0 + 2 * S) / S }).valid).toBe(true);
  });
});

describe('auto-disable', () => {
  /** Records `count` events and runs them through all 7 attempts; returns the time after. */
  async function exhaust(workspaceId: number, count: number, from: number): Promise<number> {
    fx.clock.set(from);
    for (let i = 0; i < count; i++) await fx.record(fx.terminal(workspaceId));
    for (const offset of [0, 10, 110, 1010, 4610, 11810, 22610]) await fx.runAt(from + offset * S);
    return from + 22_611 * S;
  }

  it('disables on the 10th exhausted event, not the 9th; then nothing more is sent until re-enabled', async () => {
    const workspaceId = fx.nextWorkspace++;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    let t = await exhaust(workspaceId, 9, T0);
    expect((await fx.store.getWebhook(webhook.id))?.enabled).toBe(true);
    t = await exhaust(workspaceId, 1, t);
    expect(await fx.store.getWebhook(webhook.id)).toMatchObject({ enabled: false, disabledReason: 'disabled automatically after 10 consecutive failed events' });

    fx.hits = [];
    fx.answer = 200;
    fx.clock.set(t);
    expect(await fx.record(fx.terminal(workspaceId))).toBe(0);
    await fx.runAt(t);
    expect(fx.hits).toHaveLength(0);

    await enableWebhook(fx.deps, webhook.id, workspaceId);
    expect(await fx.record(fx.terminal(workspaceId))).toBe(1);
    await fx.runAt(t);
    expect(fx.hits).toHaveLength(1);
  });

  it('a success in between resets the count', async () => {
    const workspaceId = fx.nextWorkspace++;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    let t = await exhaust(workspaceId, 9, T0);
    fx.answer = 200;
    fx.clock.set(t);
    await fx.record(fx.terminal(workspaceId));
    await fx.runAt(t);
    fx.answer = 500;
    t = await exhaust(workspaceId, 9, t + S);
    expect((await fx.store.getWebhook(webhook.id))?.enabled).toBe(true);
    await exhaust(workspaceId, 1, t);
    expect((await fx.store.getWebhook(webhook.id))?.enabled).toBe(false);
  }, 60_000);
});

describe('a dispatcher that died mid-attempt', () => {
  it('loses no retry and does not repeat the attempt number', async () => {
    const workspaceId = fx.nextWorkspace++;
    fx.answer = 200;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    await fx.record(fx.terminal(workspaceId));
    const [delivery] = await fx.store.listDeliveries(webhook.id, 1);
    // Another dispatcher claimed attempt 1 and died before moving the delivery on.
    await fx.store.claimAttempt({ deliveryId: delivery!.id, attempt: 1, claimedAt: fx.clock.now(), claimedBy: 'dead' });
    await fx.runAt(T0 + 29 * S);
    expect(fx.hits).toHaveLength(0);
    await fx.runAt(T0 + 31 * S); // lease over: the delivery moves on to attempt 2, due 10 s after the lost attempt
    await fx.runAt(T0 + 31 * S + 1);
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['2']);
    expect((await fx.store.getDelivery(delivery!.id))?.status).toBe('succeeded');
  });
});
