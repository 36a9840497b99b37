/**
 * First attempts started from the event, without a pass (a pass reads every scheduled delivery, since
 * FerretDB pushes down neither sort nor limit): at once when there is room, the delivery stored holding
 * its first attempt, else waiting in the dispatcher for room (real store, real HTTP, injected clock).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createWebhook } from '../domain/manage-webhooks.js';
import { deliverFirstAttempt } from '../domain/deliver-attempt.js';
import type { Delivery, Webhook } from '../domain/model.js';
import type { FirstAttempts } from '../domain/ports.js';
import { recordPostTerminal } from '../domain/record-event.js';
import type { Dispatcher } from './dispatcher.js';
import { dispatcherHarness, S, T0 } from '../../../../tests/support/webhooks-dispatcher.js';

const fx = dispatcherHarness();

/** Starts first attempts through the waiting queue only, as when the dispatcher had no room as the event was recorded. */
const offerOnly = (dispatcher: Dispatcher): FirstAttempts => ({
  reserve: () => false,
  startHeld: () => undefined,
  release: () => undefined,
  offer: (delivery, webhook) => dispatcher.offer(delivery, webhook),
});

describe('first attempts start from the event (real store, real HTTP)', () => {
  it('stores a delivery with room to send it holding its first attempt (claimed first), sends it with no pass or move, once; its retry stays on the schedule', async () => {
    const workspaceId = fx.nextWorkspace++;
    await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    fx.clock.set(T0);
    const claims = vi.spyOn(fx.store, 'claimAttempt');
    const updates = vi.spyOn(fx.store, 'updateDelivery');
    const passes = vi.spyOn(fx.store, 'dueDeliveries');
    expect(await recordPostTerminal(fx.deps, fx.terminal(workspaceId), fx.dispatcher)).toBe(1);
    await fx.dispatcher.settle();
    expect(claims.mock.calls.map(([claim]) => claim.attempt)).toEqual([1]);
    expect(passes).not.toHaveBeenCalled();
    // One write after the attempt: the receiver failed (500), so its retry is scheduled 10 s after it.
    expect(updates.mock.calls.map(([, patch]) => patch)).toEqual([{ nextAttemptAt: new Date(T0 + 10 * S), lastError: 'HTTP 500', lastStatusCode: 500 }]);
    vi.restoreAllMocks();
    expect(fx.hits).toHaveLength(1);
    const id = fx.hits[0]!.headers['x-service-event-id'] as string;
    expect(fx.hits[0]?.headers['x-service-attempt']).toBe('1');
    expect(await fx.store.getDelivery(id)).toMatchObject({ status: 'scheduled', attempts: 1, nextAttemptAt: new Date(T0 + 10 * S) });
    // Offered again once attempted (its next attempt is scheduled later): nothing is sent before its time.
    const delivery = (await fx.store.getDelivery(id))!;
    fx.dispatcher.offer(delivery, (await fx.store.getWebhook(delivery.webhookId))!);
    await fx.dispatcher.settle();
    expect(fx.hits).toHaveLength(1);
    // The second attempt comes from a pass at its scheduled time, as before.
    await fx.runAt(T0 + 10 * S - 1);
    expect(fx.hits).toHaveLength(1);
    await fx.runAt(T0 + 10 * S);
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['1', '2']);
  });

  it('handles an event again without a second delivery or a stray claim when it held the first attempt', async () => {
    fx.answer = 200;
    const workspaceId = fx.nextWorkspace++;
    await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const event = fx.terminal(workspaceId);
    const claims = vi.spyOn(fx.store, 'claimAttempt');
    expect(await recordPostTerminal(fx.deps, event, fx.dispatcher)).toBe(1);
    expect(await recordPostTerminal(fx.deps, event, fx.dispatcher)).toBe(0);
    await fx.dispatcher.settle();
    const claimed = claims.mock.calls.map(([claim]) => claim.deliveryId);
    vi.restoreAllMocks();
    expect(fx.hits).toHaveLength(1);
    const id = fx.hits[0]!.headers['x-service-event-id'] as string;
    // The second handling claimed attempt 1 of a new id before its insert was refused, then took it back.
    expect(claimed).toHaveLength(2);
    expect(claimed[0]).toBe(id);
    expect(await fx.store.getAttempt(id, 1)).not.toBeNull();
    expect(await fx.store.getAttempt(claimed[1]!, 1)).toBeNull();
  });

  it('leaves a delivery stored holding its first attempt to another dispatcher when its own never sent it: attempt 2 at its retry time', async () => {
    const workspaceId = fx.nextWorkspace++;
    await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    fx.clock.set(T0);
    // A dispatcher that reserves room and dies before sending (startHeld never runs).
    const dying = { reserve: () => true, startHeld: () => undefined, release: () => undefined, offer: () => undefined };
    expect(await recordPostTerminal(fx.deps, fx.terminal(workspaceId), dying)).toBe(1);
    await fx.runAt(T0 + 10 * S - 1);
    expect(fx.hits).toHaveLength(0);
    await fx.runAt(T0 + 10 * S);
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['2']);
  });

  it('does not send a held first attempt that starts too late to end before attempt 2 is due: attempt 2 comes at its time', async () => {
    fx.answer = 200;
    const workspaceId = fx.nextWorkspace++;
    await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    fx.clock.set(T0);
    // Storing took long: the dispatcher gets to send attempt 1 only 5 s later, when it could still run at 10 s.
    let held: [Delivery, Webhook] | undefined;
    const slow = { reserve: () => true, startHeld: (delivery: Delivery, webhook: Webhook) => void (held = [delivery, webhook]), release: () => undefined, offer: () => undefined };
    expect(await recordPostTerminal(fx.deps, fx.terminal(workspaceId), slow)).toBe(1);
    fx.clock.set(T0 + 5 * S);
    await deliverFirstAttempt(fx.deps, ...held!);
    expect(fx.hits).toHaveLength(0);
    await fx.runAt(T0 + 10 * S);
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['2']);
  });

  it('leaves an offered delivery for a pass when there is no room, and the pass sends it', async () => {
    const workspaceId = fx.nextWorkspace++;
    await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const full = fx.newDispatcher(fx.deps, { concurrency: 0, perWebhook: 1 });
    await recordPostTerminal(fx.deps, fx.terminal(workspaceId), full);
    await full.settle();
    expect(fx.hits).toHaveLength(0);
    expect((await fx.store.dueDeliveries(fx.clock.now(), 10, [])).length).toBe(1);
    await fx.runAt(T0);
    expect(fx.hits).toHaveLength(1);
  });

  it('starts offered deliveries that waited for room as attempts end, oldest webhook first, with no pass', async () => {
    fx.answer = 200;
    const [a, b] = [fx.nextWorkspace++, fx.nextWorkspace++];
    await createWebhook(fx.deps, { workspaceId: a, url: `${fx.receiverUrl}?a`, events: [] });
    await createWebhook(fx.deps, { workspaceId: b, url: `${fx.receiverUrl}?b`, events: [] });
    const one = fx.newDispatcher(fx.deps, { concurrency: 1, perWebhook: 1 });
    const passes = vi.spyOn(fx.store, 'dueDeliveries');
    const offer = (workspaceId: number) => recordPostTerminal(fx.deps, fx.terminal(workspaceId, 'posted'), one);
    await Promise.all([offer(a), offer(a), offer(b)]);
    await one.settle();
    // Asked before mockRestore, which also forgets the calls.
    expect(passes).not.toHaveBeenCalled();
    passes.mockRestore();
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['1', '1', '1']);
    expect(new Set(fx.hits.map((h) => JSON.parse(h.body).id)).size).toBe(3);
  });

  it("never lets a busy webhook's waiting deliveries hold back another webhook's", async () => {
    fx.answer = 200;
    // A receiver that holds each request until the test answers it.
    const held: http.ServerResponse[] = [];
    const slow = http.createServer((req, res) => {
      req.resume();
      held.push(res);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const [a, b] = [fx.nextWorkspace++, fx.nextWorkspace++];
      await createWebhook(fx.deps, { workspaceId: a, url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`, events: [] });
      await createWebhook(fx.deps, { workspaceId: b, url: fx.receiverUrl, events: [] });
      const two = fx.newDispatcher(fx.deps, { concurrency: 2, perWebhook: 1 });
      const passes = vi.spyOn(fx.store, 'dueDeliveries');
      const offer = (workspaceId: number) => recordPostTerminal(fx.deps, fx.terminal(workspaceId, 'posted'), two);
      // The held webhook's three offers come first: one attempt in flight, two waiting ahead of b's.
      await Promise.all([offer(a), offer(a), offer(a)]);
      await Promise.all([offer(b), offer(b), offer(b)]);
      await expect.poll(() => fx.hits.length, { timeout: 10_000, interval: 10 }).toBe(3);
      expect(held).toHaveLength(1);
      // Released one at a time: the held webhook's waiting deliveries start as its own attempts end.
      for (let n = 1; n <= 3; n++) {
        await expect.poll(() => held.length, { timeout: 10_000, interval: 10 }).toBe(n);
        held[n - 1]!.writeHead(200).end();
      }
      await two.settle();
      expect(passes).not.toHaveBeenCalled();
      passes.mockRestore();
      expect(held).toHaveLength(3);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('sends an attempt while its delivery moves on to it, and writes the outcome only after the move', async () => {
    fx.answer = 200;
    const workspaceId = fx.nextWorkspace++;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const updates: string[] = [];
    const update = fx.store.updateDelivery.bind(fx.store);
    // The real write, made to land only once the receiver has the request.
    const spy = vi.spyOn(fx.store, 'updateDelivery').mockImplementation(async (id, patch) => {
      if (patch.attempts === 1 && !patch.status) await held;
      updates.push(patch.status ?? `attempts ${patch.attempts}`);
      return update(id, patch);
    });
    await recordPostTerminal(fx.deps, fx.terminal(workspaceId, 'posted'), offerOnly(fx.dispatcher));
    await expect.poll(() => fx.hits.length, { timeout: 10_000, interval: 10 }).toBe(1);
    expect(updates).toEqual([]);
    release();
    await fx.dispatcher.settle();
    spy.mockRestore();
    expect(updates).toEqual(['attempts 1', 'succeeded']);
    const [delivery] = await fx.store.listDeliveries(webhook.id, 1);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, nextAttemptAt: undefined });
  });

  it('looks for due work again when a webhook left out at its limit has room, not on every other attempt end', async () => {
    fx.answer = 200;
    const held: http.ServerResponse[] = [];
    const slow = http.createServer((req, res) => {
      req.resume();
      held.push(res);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const [a, b] = [fx.nextWorkspace++, fx.nextWorkspace++];
      await createWebhook(fx.deps, { workspaceId: a, url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`, events: [] });
      await createWebhook(fx.deps, { workspaceId: b, url: fx.receiverUrl, events: [] });
      const one = fx.newDispatcher(fx.deps, { concurrency: 64, perWebhook: 1 });
      await recordPostTerminal(fx.deps, fx.terminal(a, 'posted'));
      await one.pass(); // a's first attempt, held by its receiver
      await expect.poll(() => held.length, { timeout: 10_000, interval: 10 }).toBe(1);
      await recordPostTerminal(fx.deps, fx.terminal(a, 'posted'));
      await one.pass(); // a is at its limit: its second delivery is left in the store
      const passes = vi.spyOn(fx.store, 'dueDeliveries');
      const offer = () => recordPostTerminal(fx.deps, fx.terminal(b, 'posted'), one);
      await Promise.all([offer(), offer(), offer()]);
      await expect.poll(() => fx.hits.length, { timeout: 10_000, interval: 10 }).toBe(3);
      expect(passes).not.toHaveBeenCalled();
      held[0]!.writeHead(200).end(); // a has room: a pass finds its second delivery, which only the store has
      await expect.poll(() => held.length, { timeout: 10_000, interval: 10 }).toBe(2);
      expect(passes).toHaveBeenCalled();
      passes.mockRestore();
      held[1]!.writeHead(200).end();
      await one.settle();
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
