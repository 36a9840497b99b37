import { captureOrigin, type WorkOrigin } from '@spa/telemetry';
import type { Connection } from 'mongoose';
import { LRUCache } from 'lru-cache';
import { Schema } from 'mongoose';
import { PostCreated, PostDeleted, PostReviewed, PostUpdated } from '@spa/contracts/events/v1/posts';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import type { PostEvent } from '../domain/model.js';

/**
 * The transactional outbox of the posts service, in its own collection. An entry is written
 * before the change it announces and names the post's `updated_at` after that change; the relay
 * publishes it once the post shows the change, then removes it, and marks it abandoned if the change
 * never landed. Only the relay updates or removes entries, so no two writers ever race on one document
 * (FerretDB 1.x does not apply concurrent updates of one document atomically). Entries stored before
 * published ones were removed stay as history, marked sent.
 */
export interface OutboxEntry {
  _id: string;
  subject: string;
  /** The protobuf event, base64. */
  payload: string;
  post_id: number;
  post_updated_at: Date;
  state: 'pending' | 'sent' | 'abandoned';
  /**
   * The insert (group commit) the entry was written in: the relay removes the entries of one insert it
   * published in one statement, found by this (indexed). Absent on entries stored before it.
   */
  batch?: string;
  created_at: Date;
  sent_at?: Date | null;
  /** The request whose change this event announces: the relay publishes it with that request id and trace. */
  origin?: WorkOrigin;
}

export function registerOutbox(connection: Connection) {
  const schema = new Schema(
    {
      _id: String,
      subject: { type: String, required: true },
      payload: { type: String, required: true },
      post_id: { type: Number, required: true },
      post_updated_at: { type: Date, required: true },
      state: { type: String, required: true },
      created_at: { type: Date, required: true },
      sent_at: Date,
      batch: String,
      origin: { requestId: String, traceparent: String, tracestate: String },
    },
    { collection: 'outbox', versionKey: false },
  );
  schema.index({ state: 1, created_at: 1 });
  schema.index({ batch: 1 });
  return connection.model('OutboxEntry', schema);
}

export type OutboxModel = ReturnType<typeof registerOutbox>;

export function encodeEvent(event: PostEvent): string {
  const common = { workspaceId: event.workspaceId, postId: event.postId, status: event.status, occurredAt: event.occurredAt.toISOString() };
  const scheduledAt = event.scheduledAt?.toISOString();
  const encoders = {
    'posts.post.created': () => PostCreated.encode({ ...common, scheduledAt }).finish(),
    'posts.post.reviewed': () => PostReviewed.encode({ ...common, reviewAction: event.reviewAction ?? '', scheduledAt }).finish(),
    'posts.post.updated': () => PostUpdated.encode({ ...common, scheduledAt, previousStatus: event.previous?.status, previousScheduledAt: event.previous?.scheduledAt?.toISOString() }).finish(),
    'posts.post.deleted': () => PostDeleted.encode(common).finish(),
    'posts.post.terminal': () =>
      PostTerminal.encode({
        ...common,
        dryRun: event.dryRun ?? false,
        recyclable: event.recyclable,
        platforms: (event.platforms ?? []).map((p) => ({
          postAccountId: p.postAccountId,
          socialAccountId: p.socialAccountId,
          platform: p.platform,
          platformStatus: p.platformStatus,
          platformPostId: p.platformPostId,
          platformError: p.platformError,
          dubShortUrl: p.dubShortUrl,
        })),
      }).finish(),
  } satisfies Record<PostEvent['subject'], () => Uint8Array>;
  const bytes = encoders[event.subject]();
  return Buffer.from(bytes).toString('base64');
}

/** The workspace of an entry's post (every posts event carries it as field 1). */
export function entryWorkspaceId(entry: Pick<OutboxEntry, 'payload'>): number {
  return PostDeleted.decode(Buffer.from(entry.payload, 'base64')).workspaceId;
}

export function outboxEntry(event: PostEvent, postUpdatedAt: Date): OutboxEntry {
  return {
    _id: event.msgId,
    subject: event.subject,
    payload: encodeEvent(event),
    post_id: event.postId,
    post_updated_at: postUpdatedAt,
    state: 'pending',
    created_at: event.occurredAt,
    origin: captureOrigin(),
  };
}

/**
 * The outbox entries whose writes this process saw land, list entry recorded: the relay publishes them
 * without reading their posts again. Bounded (the oldest forgotten first: a forgotten entry is checked
 * the usual way), and in memory only (after a crash every entry is checked). Also the entries whose
 * writes are under way here: the relay leaves them to the write, which ends by recording them landed or
 * by deleting them (a write that throws leaves its entry to be checked the usual way).
 */
export class LandedWrites {
  private readonly ids = new LRUCache<string, true>({ max: 100_000 });
  private readonly underway = new Set<string>();

  /** Runs the write that queues the entries; until it ends, `isUnderway` says so of each. */
  async during<T>(ids: string[], write: () => Promise<T>): Promise<T> {
    for (const id of ids) this.underway.add(id);
    try {
      return await write();
    } finally {
      for (const id of ids) this.underway.delete(id);
    }
  }

  isUnderway(id: string): boolean {
    return this.underway.has(id);
  }

  add(id: string): void {
    this.ids.set(id, true);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  delete(id: string): void {
    this.ids.delete(id);
  }
}
