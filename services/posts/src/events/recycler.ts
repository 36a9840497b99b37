import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { consumeDurable, fromOtherDeployment, POSTS_STREAM, type NatsConnection } from '@spa/nats';
import { recyclePosting, type RecycleDeps } from '../domain/recycle-post.js';

/** Delay before a failed posting is offered again (e.g. the generation service was down or over quota). */
const RETRY_DELAY_MS = 10_000;

/**
 * Durable, explicitly acknowledged consumer of posts.post.terminal (one per deployment, shared by the
 * replicas): each posting of an evergreen post is recycled once. A message is acknowledged after its
 * recycle is stored; a crash or failure before that is redelivered, and the claim keeps a repeat from
 * creating a second post.
 */
export function startRecycler(nc: NatsConnection, deps: RecycleDeps, namespace: string, ackWaitMs: number): Promise<{ stop(): Promise<void> }> {
  return consumeDurable(
    nc,
    // 8 postings at once (each is a few reads and writes, at most one generation call); postings from the first start on.
    { stream: POSTS_STREAM, durable: `posts-recycler-${namespace}`, filterSubject: 'posts.post.terminal', startAt: 'new', ackWaitMs, parallel: 8, prefetch: 64 },
    async (msg) => {
      // Another deployment's post (one sharing this NATS server): its id may name a post of ours.
      if (fromOtherDeployment(msg, namespace)) return msg.ack();
      let event;
      try {
        event = PostTerminal.decode(msg.data);
      } catch (err) {
        deps.logger.error({ err, seq: msg.seq }, 'recycler: undecodable terminal event; dropped');
        msg.term();
        return;
      }
      const outcome = await recyclePosting(deps, event);
      if (outcome !== 'not_recycled') deps.logger.info({ post: event.postId, outcome }, 'recycler: posting handled');
      msg.ack();
    },
    (err, msg) => deps.logger.warn({ err, seq: msg.seq }, 'recycler: not recycled yet; will be redelivered'),
    RETRY_DELAY_MS,
  );
}
