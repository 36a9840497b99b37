import { describe, expect, it } from 'vitest';
import { webhooksCrashWorld } from '../support/webhooks-crash.js';

/**
 * SIGKILL of the real webhooks process while first attempts sent from their events are out: their
 * deliveries are stored only after the attempt, so all the killed process left of them is each attempt's
 * claim and its unacknowledged event. After a restart JetStream hands those events out again (after the
 * ack wait, 30 s), each finds its claim, and its delivery goes on with attempt 2 under the same id: none
 * lost, no attempt number twice.
 */
const WORKSPACES = 5;
const EVENTS_PER_WORKSPACE = 40;
const PER_WEBHOOK = 8;
const HELD = WORKSPACES * PER_WEBHOOK;

/** Until the kill the receiver answers nothing (the attempts are "out"); after it, 200. */
let answering = false;
const delivered = new Set<string>();
const world = webhooksCrashWorld(
  'webhooks_first_crash',
  (id, _attempt, res) => {
    if (!answering) return;
    delivered.add(id);
    res.writeHead(200).end();
  },
  { WEBHOOKS_CONCURRENCY_PER_WEBHOOK: String(PER_WEBHOOK) },
);

describe('webhooks: first attempts sent from their events, dispatcher killed (SIGKILL of the real process)', () => {
  it('loses none of the deliveries whose first attempt was out, and continues each with attempt 2 under the same id', async () => {
    const first = await world.start();
    await world.createWebhooksAndPublish(first.address, WORKSPACES, EVENTS_PER_WORKSPACE, 'posted', 700_000 + Math.floor(Math.random() * 99_999));
    // Each webhook's room taken by first attempts sent from their events; the other events' deliveries stored, waiting.
    const deliveries = world.deliveries();
    await expect.poll(() => world.seen.length, { timeout: 60_000, interval: 20 }).toBe(HELD);
    await expect.poll(() => deliveries.countDocuments(), { timeout: 60_000, interval: 20 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE - HELD);
    const out = new Set(world.seen.map(([id]) => id));
    const stored = new Set((await deliveries.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
    expect(
      [...out].filter((id) => stored.has(id)),
      'a delivery sent from its event is stored only after its attempt',
    ).toEqual([]);

    first.child.kill('SIGKILL');
    await first.stop();
    answering = true;
    world.receiver().closeAllConnections();

    await world.start();
    const restartedAt = Date.now();
    await expect.poll(() => delivered.size, { timeout: 120_000, interval: 500 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);
    console.log(`all ${delivered.size} delivered ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`);

    // The attempts that were out continue under the same id with attempt 2; nothing is sent twice.
    const byId = await world.expectAttemptsOnce();
    for (const id of out) expect(byId.get(id), id).toEqual([1, 2]);
    await expect.poll(() => deliveries.countDocuments({ status: 'succeeded' }), { timeout: 30_000, interval: 500 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);
    expect(await deliveries.countDocuments()).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);
  }, 240_000);
});
