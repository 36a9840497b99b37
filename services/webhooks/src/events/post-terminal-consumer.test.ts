/** The post terminal consumer's acknowledgement of an event, on a real JetStream (the POSTS stream). */
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { createLogger } from '@spa/logger';
import { connectNats, jetstream, POSTS_STREAM, publishEvent, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumePostTerminal } from './post-terminal-consumer.js';

let nc: NatsConnection;
const suffix = randomBytes(4).toString('hex');
const durable = `t_post_terminal_${suffix}`;
const namespace = `t_${suffix}`;

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'post-terminal-consumer-test');
});
afterAll(async () => {
  await (await jetstreamManager(nc)).consumers.delete(POSTS_STREAM.name, durable).catch(() => undefined);
  await nc.drain();
});

describe('post terminal consumer (real JetStream)', () => {
  it('acknowledges an event only once its deliveries are recorded: one whose recording failed after the handler returned comes again', async () => {
    const eventId = `t-event-${suffix}`;
    const handled: Array<'failed' | 'recorded'> = [];
    let releaseFirst: (() => void) | undefined;
    const consumer = await consumePostTerminal(
      nc,
      durable,
      namespace,
      async (event) => {
        // Events of other tests on this server (no deployment header) are not this test's.
        if (event.sourceKey !== eventId) return { recorded: Promise.resolve(0) };
        if (!handled.length) {
          handled.push('failed');
          // The handler returns at once; its deliveries fail to be stored later (the first attempt was out).
          return { recorded: new Promise<number>((_, reject) => (releaseFirst = () => reject(new Error('store unavailable')))) };
        }
        handled.push('recorded');
        return { recorded: Promise.resolve(1) };
      },
      createLogger('post-terminal-consumer-test', 'silent'),
    );
    try {
      const payload = PostTerminal.encode({ workspaceId: 1, postId: 1, status: 'posted', occurredAt: new Date().toISOString(), platforms: [] }).finish();
      await publishEvent(jetstream(nc), 'posts.post.terminal', payload, eventId, namespace);
      await expect.poll(() => handled.length, { timeout: 10_000, interval: 20 }).toBe(1);
      const pending = async () => (await (await jetstreamManager(nc)).consumers.info(POSTS_STREAM.name, durable)).num_ack_pending;
      expect(await pending()).toBe(1); // handled, not acknowledged while its recording is out
      releaseFirst!();
      await expect.poll(() => handled, { timeout: 10_000, interval: 20 }).toEqual(['failed', 'recorded']);
      await expect.poll(pending, { timeout: 10_000, interval: 50 }).toBe(0);
    } finally {
      await consumer.stop();
    }
  });
});
