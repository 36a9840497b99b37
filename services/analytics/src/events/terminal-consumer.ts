import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import type { Logger } from '@spa/logger';
import { consumeDurable, POSTS_STREAM, type NatsConnection } from '@spa/nats';
import type { AnalyticsDeps } from '../domain/ports.js';
import { trackPostedTargets, type TrackingOptions } from '../domain/track-posted.js';

/**
 * Durable consumer of posts.post.terminal: a post that published (posted or partial) gets its targets
 * tracked and their fetches scheduled. Acknowledged once stored; handling it again adds nothing.
 */
export function consumePostTerminal(nc: NatsConnection, deps: AnalyticsDeps, o: TrackingOptions, logger: Logger, namespace: string) {
  return consumeDurable(
    nc,
    { stream: POSTS_STREAM, durable: `analytics-${namespace}`, filterSubject: 'posts.post.terminal', startAt: 'new', ackWaitMs: 30_000, parallel: 16 },
    async (msg) => {
      const e = PostTerminal.decode(msg.data);
      if (e.status === 'posted' || e.status === 'partial') await trackPostedTargets(deps, o, e.workspaceId, e.postId);
      msg.ack();
    },
    (err, msg) => logger.warn({ err, seq: msg.seq, subject: msg.subject }, 'event not handled; will be redelivered'),
  );
}
