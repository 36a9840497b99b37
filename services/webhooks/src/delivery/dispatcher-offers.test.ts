/**
 * First attempts started from the event, without a pass (a pass reads every scheduled delivery, since
 * FerretDB pushes down neither sort nor limit): sent at once when there is room, the delivery stored
 * after it holding its outcome, else stored and waiting in the dispatcher for room (real store, real
 * HTTP, injected clock).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createWebhook } from '../domain/manage-webhooks.js';
import type { Delivery } from '../domain/model.js';
import type { FirstAttempts } from '../domain/ports.js';
import { deliveryIdOf, recordPostTerminal } from '../domain/record-event.js';
import type { Dispatcher } from './dispatcher.js';
import { dispatcherHarness, S, T0 } from '../../../../tests/support/webhooks-dispatcher.js';

const fx = dispatcherHarness();

/** Starts first attempts through the waiting queue only, as when the dispatcher had no room as the event was recorded. */
const offerOnly = (dispatcher: Dispatcher): FirstAttempts => ({
  sendFirst: () => null,
  offer: (delivery, webhook) => dispatcher.offer(delivery, webhook),
});

/** Runs `body` with a receiver that holds each request until the test answers it (`held`, in arrival order). */
async function withHeldReceiver(body: (url: string, held: http.ServerResponse[]) => Promise<void>): Promise<void> {
  const held: http.ServerResponse[] = [];
  const slow = http.createServer((req, res) => {
    req.resume();
    held.push(res);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  try {
    await body(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`, held);
  } finally {
    slow.closeAllConnections();
    await new Promise((resolve) => slow.close(resolve));
  }
}

describe('first attempts start from the event (real store, real HTTP)', () => {
  it('sends a delivery with room at once, claimed first, then stores it holding the outcome: no pass, no update; its retry stays on the schedule', async () => {
    const workspaceId = fx.nextWorkspace++;
    await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    fx.clock.set(T0);
    const claims = vi.spyOn(fx.store, 'claimAttempt');
    const updates = vi.spyOn(fx.store, 'updateDelivery');
    const passes = vi.spyOn(fx.store, 'dueDeliveries');
    const inserts: Array<{ hitsBefore: number; delivery: Delivery }> = [];
    const insert = fx.store.insertDelivery.bind(fx.store);
    vi.spyOn(fx.store, 'insertDelivery').mockImplementation((delivery) => (inserts.push({ hitsBefore: fx.hits.length, delivery }), insert(delivery)));
    expect(await fx.record(fx.terminal(workspaceId), fx.dispatcher)).toBe(1);
    expect(claims.mock.calls.map(([claim]) => claim.attempt)).toEqual([1]);
    expect(passes).not.toHaveBeenCalled();
    expect(updates).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(fx.hits).toHaveLength(1);
    const id = fx.hits[0]!.headers['x-service-event-id'] as string;
    expect(fx.hits[0]?.headers['x-service-attempt']).toBe('1');
    // One insert, after the attempt, holding its outcome: the receiver failed (500), so attempt 2 is due 10 s after it.
    expect(inserts).toHaveLength(1);
    expect(inserts[0]!.hitsBefore).toBe(1);
    expect(await fx.store.getDelivery(id)).toMatchObject({ status: 'scheduled', attempts: 1, nextAttemptAt: new Date(T0 + 10 * S), lastError: 'HTTP 500', lastStatusCode: 500 });
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

  it('handles an event again without a second delivery, attempt or claim: the delivery id is the same, and its claim is found', async () => {
    fx.answer = 200;
    const workspaceId = fx.nextWorkspace++;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const event = fx.terminal(workspaceId);
    const claims = vi.spyOn(fx.store, 'claimAttempt');
    expect(await fx.record(event, fx.dispatcher)).toBe(1);
    expect(await fx.record(event, fx.dispatcher)).toBe(0);
    const claimed = claims.mock.calls.map(([claim]) => `${claim.deliveryId}:${claim.attempt}`);
    vi.restoreAllMocks();
    expect(fx.hits).toHaveLength(1);
    const id = fx.hits[0]!.headers['x-service-event-id'] as string;
    expect(id).toBe(deliveryIdOf(webhook.id, event.sourceKey));
    expect(claimed).toEqual([`${id}:1`, `${id}:1`]);
    expect(await fx.store.listDeliveries(webhook.id, 10)).toEqual([expect.objectContaining({ id, status: 'succeeded', attempts: 1 })]);
  });

  it('stores the delivery of an event whose dispatcher stopped between the claim and the insert when the event comes again: attempt 2 at its retry time', async () => {
    const workspaceId = fx.nextWorkspace++;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const event = fx.terminal(workspaceId);
    // What a dispatcher killed during attempt 1 leaves: the claim, no delivery, the event unacknowledged.
    const id = deliveryIdOf(webhook.id, event.sourceKey);
    await fx.store.claimAttempt({ deliveryId: id, attempt: 1, claimedAt: new Date(T0), claimedBy: 'killed' });
    fx.clock.set(T0 + 3 * S); // JetStream hands the event out again
    expect(await fx.record(event, fx.dispatcher)).toBe(1);
    expect(fx.hits).toHaveLength(0);
    expect(await fx.store.getDelivery(id)).toMatchObject({ status: 'scheduled', attempts: 1, nextAttemptAt: new Date(T0 + 10 * S), lastError: expect.stringMatching(/stopped during the attempt/) });
    await fx.runAt(T0 + 10 * S - 1);
    expect(fx.hits).toHaveLength(0);
    await fx.runAt(T0 + 10 * S);
    expect(fx.hits.map((h) => [h.headers['x-service-event-id'], h.headers['x-service-attempt']])).toEqual([[id, '2']]);
  });

  it('fails the event when the delivery cannot be stored after attempt 1, and handling it again keeps the attempt numbers', async () => {
    const workspaceId = fx.nextWorkspace++;
    const { webhook } = await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const event = fx.terminal(workspaceId);
    vi.spyOn(fx.store, 'insertDelivery').mockRejectedValueOnce(new Error('store unavailable'));
    await expect(fx.record(event, fx.dispatcher)).rejects.toThrow('store unavailable');
    vi.restoreAllMocks();
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['1']);
    expect(await fx.record(event, fx.dispatcher)).toBe(1);
    await fx.runAt(T0 + 10 * S);
    expect(fx.hits.map((h) => h.headers['x-service-attempt'])).toEqual(['1', '2']);
    expect(await fx.store.listDeliveries(webhook.id, 10)).toHaveLength(1);
  });

  // Handled again while attempt 1 is out. By another dispatcher (another consumer), it finds the claim and stores
  // the delivery. By the same one, the delivery's id is in flight there, so it stores it rather than sending it
  // (and were it to try, attempt 1's claim would stop it: the claim, not the in-flight check, keeps it single).
  it.each(['another dispatcher', 'the same dispatcher'])('records the outcome of attempt 1 on the delivery when the event, handled again during the attempt by %s, stored it first', async (by) => {
    fx.answer = 200;
    await withHeldReceiver(async (slowUrl, held) => {
      const workspaceId = fx.nextWorkspace++;
      const { webhook } = await createWebhook(fx.deps, { workspaceId, url: slowUrl, events: [] });
      const event = fx.terminal(workspaceId);
      const dispatcher = fx.newDispatcher(fx.deps, { concurrency: 8, perWebhook: 8 });
      const first = await recordPostTerminal(fx.deps, event, dispatcher);
      await expect.poll(() => held.length, { timeout: 10_000, interval: 10 }).toBe(1);
      const again = by === 'the same dispatcher' ? dispatcher : fx.newDispatcher(fx.deps, { concurrency: 8, perWebhook: 8 });
      expect(await fx.record(event, again)).toBe(1);
      held[0]!.writeHead(200).end();
      expect(await first.recorded).toBe(0);
      await Promise.all([dispatcher.settle(), again.settle()]);
      expect(held).toHaveLength(1);
      expect(await fx.store.listDeliveries(webhook.id, 10)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 1, lastStatusCode: 200 })]);
    });
  });

  it('sends at most `sentFirst` first attempts from their events at once (each holds its event unacknowledged); past it a delivery is stored first', async () => {
    await withHeldReceiver(async (slowUrl, held) => {
      const workspaceId = fx.nextWorkspace++;
      const { webhook } = await createWebhook(fx.deps, { workspaceId, url: slowUrl, events: [] });
      const bounded = fx.newDispatcher(fx.deps, { concurrency: 64, perWebhook: 64, sentFirst: 1 });
      const first = await recordPostTerminal(fx.deps, fx.terminal(workspaceId, 'posted'), bounded);
      const second = await recordPostTerminal(fx.deps, fx.terminal(workspaceId, 'posted'), bounded);
      await expect.poll(() => held.length, { timeout: 10_000, interval: 10 }).toBe(2);
      // The second was stored before its attempt (as when there is no room), the first is not stored yet.
      expect(await second.recorded).toBe(1);
      // Its attempt's move (attempts: 1) is written while the request is out, so it may land just after the receiver has it.
      await expect.poll(() => fx.store.listDeliveries(webhook.id, 10), { timeout: 5_000, interval: 10 }).toEqual([expect.objectContaining({ status: 'scheduled', attempts: 1 })]);
      for (const res of held) res.writeHead(200).end();
      expect(await first.recorded).toBe(1);
      await bounded.settle();
      expect((await fx.store.listDeliveries(webhook.id, 10)).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    });
  });

  it('leaves an offered delivery for a pass when there is no room, and the pass sends it', async () => {
    const workspaceId = fx.nextWorkspace++;
    await createWebhook(fx.deps, { workspaceId, url: fx.receiverUrl, events: [] });
    const full = fx.newDispatcher(fx.deps, { concurrency: 0, perWebhook: 1 });
    await fx.record(fx.terminal(workspaceId), full);
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
    const offer = (workspaceId: number) => fx.record(fx.terminal(workspaceId, 'posted'), one);
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
    await withHeldReceiver(async (slowUrl, held) => {
      const [a, b] = [fx.nextWorkspace++, fx.nextWorkspace++];
      await createWebhook(fx.deps, { workspaceId: a, url: slowUrl, events: [] });
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
    });
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
    await fx.record(fx.terminal(workspaceId, 'posted'), offerOnly(fx.dispatcher));
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
    await withHeldReceiver(async (slowUrl, held) => {
      const [a, b] = [fx.nextWorkspace++, fx.nextWorkspace++];
      await createWebhook(fx.deps, { workspaceId: a, url: slowUrl, events: [] });
      await createWebhook(fx.deps, { workspaceId: b, url: fx.receiverUrl, events: [] });
      const one = fx.newDispatcher(fx.deps, { concurrency: 64, perWebhook: 1 });
      await fx.record(fx.terminal(a, 'posted'));
      await one.pass(); // a's first attempt, held by its receiver
      await expect.poll(() => held.length, { timeout: 10_000, interval: 10 }).toBe(1);
      await fx.record(fx.terminal(a, 'posted'));
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
    });
  });
});
