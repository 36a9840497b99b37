import { AckPolicy, DeliverPolicy, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import type { Logger } from '@spa/logger';
import { ensureStream, jetstream, POSTS_STREAM, type NatsConnection } from '@spa/nats';
import type { AnalyticsDeps } from '../domain/ports.js';
import { trackPostedTargets, type TrackingOptions } from '../domain/track-posted.js';
import { runConsumer } from './run-consumer.js';

/**
 * Durable consumer of posts.post.terminal: a post that published (posted or partial) gets its targets
 * tracked and their fetches scheduled. Acknowledged once stored; handling it again adds nothing.
 */
export async function consumePostTerminal(nc: NatsConnection, deps: AnalyticsDeps, o: TrackingOptions, logger: Logger, namespace: string) {
  const name = `analytics-${namespace}`;
  await ensureStream(nc, POSTS_STREAM);
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.consumers.info(POSTS_STREAM.name, name);
  } catch {
    await jsm.consumers.add(POSTS_STREAM.name, {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      filter_subject: 'posts.post.terminal',
      ack_wait: 30_000_000_000,
      max_ack_pending: 1_000,
    });
  }
  const consumer = await jetstream(nc).consumers.get(POSTS_STREAM.name, name);
  return runConsumer(consumer, 16, logger, async (msg: JsMsg) => {
    const e = PostTerminal.decode(msg.data);
    if (e.status !== 'posted' && e.status !== 'partial') return;
    await trackPostedTargets(deps, o, e.workspaceId, e.postId);
  });
}
