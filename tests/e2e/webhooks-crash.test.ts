import { describe, expect, it } from 'vitest';
import { webhooksCrashWorld } from '../support/webhooks-crash.js';

/**
 * SIGKILL of the real webhooks process while 500 deliveries are in flight or waiting for their retry:
 * after a restart every one is still scheduled and delivered, and no attempt number is repeated.
 */
const WORKSPACES = 5;
const EVENTS_PER_WORKSPACE = 100;

/** Attempt 1 fails (after 200 ms), later ones succeed. */
const delivered = new Set<string>();
const world = webhooksCrashWorld('webhooks_crash', (id, attempt, res) => {
  if (attempt === 1) setTimeout(() => res.writeHead(500).end(), 200);
  else {
    delivered.add(id);
    res.writeHead(200).end();
  }
});

describe('webhooks dispatcher crash (SIGKILL of the real process)', () => {
  it('loses none of 500 in-flight retry schedules and continues attempt numbers after a restart', async () => {
    const first = await world.start();
    await world.createWebhooksAndPublish(first.address, WORKSPACES, EVENTS_PER_WORKSPACE, 'failed', 600_000 + Math.floor(Math.random() * 99_999));
    const deliveries = world.deliveries();
    await expect.poll(() => deliveries.countDocuments(), { timeout: 90_000, interval: 20 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);

    first.child.kill('SIGKILL');
    await first.stop();
    const attemptedBeforeKill = new Set(world.seen.map(([id]) => id)).size;
    console.log(`killed with ${attemptedBeforeKill} of 500 deliveries attempted once (${world.seen.length} requests), the rest not yet attempted`);
    expect(attemptedBeforeKill).toBeLessThan(500);

    await world.start();
    const restartedAt = Date.now();
    await expect.poll(() => delivered.size, { timeout: 240_000, interval: 500 }).toBe(500);
    console.log(`all 500 delivered ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`);

    const byId = await world.expectAttemptsOnce();
    expect(byId.size).toBe(500);
    await expect.poll(() => deliveries.countDocuments({ status: 'succeeded' }), { timeout: 30_000, interval: 500 }).toBe(500);
    expect(await deliveries.countDocuments()).toBe(500);
  }, 330_000);
});
