import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import type { Logger } from '@spa/logger';
import { consumeDurable, fromOtherDeployment, POSTS_STREAM, type NatsConnection } from '@spa/nats';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import type { AnalyticsDeps, PostedTarget } from '../domain/ports.js';
import { trackPostedTargets, type TrackingOptions } from '../domain/track-posted.js';

/**
 * The targets the event says were published, as the posts service would answer them; undefined for an
 * event from before it named its targets (then the post is read).
 */
function postedTargetsOf(e: PostTerminal): PostedTarget[] | undefined {
  if (e.platforms.some((p) => !p.postAccountId)) return undefined;
  if (e.dryRun) return [];
  const postedAt = new Date(e.occurredAt);
  return e.platforms
    .filter((p) => p.platformStatus === 'posted' && p.platformPostId && (PLATFORMS as readonly string[]).includes(p.platform))
    .map((p) => ({
      postAccountId: p.postAccountId,
      socialAccountId: p.socialAccountId,
      platform: p.platform as Platform,
      platformPostId: p.platformPostId,
      postedAt,
      shortened: p.dubShortUrl === undefined ? undefined : p.dubShortUrl !== '',
    }));
}

/**
 * Durable consumer of posts.post.terminal: a post that published (posted or partial) gets its targets
 * tracked and their fetches scheduled. Acknowledged once stored; handling it again adds nothing.
 */
export function consumePostTerminal(nc: NatsConnection, deps: AnalyticsDeps, o: TrackingOptions, logger: Logger, namespace: string) {
  return consumeDurable(
    nc,
    { stream: POSTS_STREAM, durable: `analytics-${namespace}`, filterSubject: 'posts.post.terminal', startAt: 'new', ackWaitMs: 30_000, parallel: 16 },
    async (msg) => {
      // Another deployment's post (one sharing this NATS server): not ours to track.
      if (fromOtherDeployment(msg, namespace)) return msg.ack();
      const e = PostTerminal.decode(msg.data);
      if (e.status === 'posted' || e.status === 'partial') await trackPostedTargets(deps, o, e.workspaceId, e.postId, postedTargetsOf(e));
      msg.ack();
    },
    (err, msg) => logger.warn({ err, seq: msg.seq, subject: msg.subject }, 'event not handled; will be redelivered'),
  );
}
