import { AckPolicy, DeliverPolicy, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { ensureStream, jetstream, POSTS_STREAM, type NatsConnection } from '@spa/nats';
import { recyclePosting, type RecycleDeps } from '../domain/recycle-post.js';

const SUBJECT = 'posts.post.terminal';
/** Postings handled at once (each is a few reads and writes, at most one generation call). */
const PARALLEL = 8;
/** Delay before a failed posting is offered again (e.g. the generation service was down or over quota). */
const RETRY_DELAY_MS = 10_000;

/**
 * Durable, explicitly acknowledged consumer of posts.post.terminal (one per deployment, shared by the
 * replicas): each posting of an evergreen post is recycled once. A message is acknowledged after its
 * recycle is stored; a crash or failure before that is redelivered, and the claim keeps a repeat from
 * creating a second post.
 */
export async function startRecycler(nc: NatsConnection, deps: RecycleDeps, namespace: string, ackWaitMs: number): Promise<{ stop(): Promise<void> }> {
  const name = `posts-recycler-${namespace}`;
  await ensureStream(nc, POSTS_STREAM);
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.consumers.info(POSTS_STREAM.name, name);
  } catch {
    // First start of this deployment: postings from now on.
    await jsm.consumers.add(POSTS_STREAM.name, {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      filter_subject: SUBJECT,
      ack_wait: ackWaitMs * 1_000_000,
      max_ack_pending: 1_000,
    });
  }
  const messages: ConsumerMessages = await (await jetstream(nc).consumers.get(POSTS_STREAM.name, name)).consume({ max_messages: 64 });
  const handle = async (msg: JsMsg): Promise<void> => {
    let event;
    try {
      event = PostTerminal.decode(msg.data);
    } catch (err) {
      deps.logger.error({ err, seq: msg.seq }, 'recycler: undecodable terminal event; dropped');
      msg.term();
      return;
    }
    try {
      const outcome = await recyclePosting(deps, event);
      if (outcome !== 'not_recycled') deps.logger.info({ post: event.postId, outcome }, 'recycler: posting handled');
      msg.ack();
    } catch (err) {
      deps.logger.warn({ err, post: event.postId }, 'recycler: not recycled yet; will be redelivered');
      msg.nak(RETRY_DELAY_MS);
    }
  };
  const running = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const msg of messages) {
      const task = handle(msg).finally(() => running.delete(task));
      running.add(task);
      if (running.size >= PARALLEL) await Promise.race(running);
    }
    await Promise.all(running);
  })();
  return {
    stop: async () => {
      await messages.close();
      await loop;
    },
  };
}
