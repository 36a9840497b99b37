import { PostCreated, PostReviewed } from '@spa/contracts/events/v1/posts';
import type { Logger } from '@spa/logger';
import { ensureStream, jetstream, publishEvent, type NatsConnection } from '@spa/nats';
import type { PostDoc } from '../data/mongo-store.js';
import type { PostsModels } from '../data/models.js';

export const POSTS_STREAM = { name: 'POSTS', subjects: ['posts.>'] };

function encode(subject: string, post: PostDoc, occurredAt: Date): Uint8Array {
  const common = { workspaceId: post.workspace_id, postId: post._id, status: post.status, occurredAt: occurredAt.toISOString() };
  return subject === 'posts.post.reviewed'
    ? PostReviewed.encode({ ...common, reviewAction: post.review_action ?? '' }).finish()
    : PostCreated.encode(common).finish();
}

/**
 * Publishes the events that posts owe (the outbox stored on each post) to JetStream, then clears
 * them. Runs after each write and every few seconds, so an event whose publish failed, or whose
 * process crashed before publishing, still goes out; Nats-Msg-Id drops duplicates.
 */
export class EventRelay {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly models: PostsModels,
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
  ) {}

  async start(intervalMs: number): Promise<void> {
    await ensureStream(this.nc, POSTS_STREAM);
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
    this.flush();
  }

  stop(): Promise<void> {
    clearInterval(this.timer);
    return this.running ?? Promise.resolve();
  }

  /** Starts a flush, or asks the running one to go round again. Never throws. */
  flush(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.logger.warn({ err }, 'event relay: publish failed; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.flush();
        }
      });
  }

  private async drain(): Promise<void> {
    const js = jetstream(this.nc);
    for (;;) {
      const batch = await this.models.Post.find({ has_pending_events: true }).limit(100).lean<PostDoc[]>();
      if (!batch.length) return;
      for (const post of batch) {
        for (const event of post.pending_events ?? []) {
          await publishEvent(js, event.subject, encode(event.subject, post, event.occurred_at), event.msg_id);
          await this.models.Post.updateOne({ _id: post._id }, { $pull: { pending_events: { msg_id: event.msg_id } } });
        }
        await this.models.Post.updateOne({ _id: post._id, pending_events: { $size: 0 } }, { $set: { has_pending_events: false } });
      }
    }
  }
}
