import { PostCreated, PostDeleted, PostReviewed, PostUpdated } from '@spa/contracts/events/v1/posts';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { eventIdOf, publicEvent, type PublicEventRecord } from '@spa/events';
import type { EventKind } from '@spa/vocabulary';
import type { OutboxEntry } from '../data/outbox.js';

const TERMINAL_KIND: Record<string, EventKind> = { posted: 'post.published', failed: 'post.failed', partial: 'post.partial_failure' };

/**
 * The public events (event log, opt-in webhooks) an outbox entry of the posts service announces, each with an id
 * derived from the entry's (so a relay that publishes the entry again publishes the same events):
 * created → post.created (+ post.scheduled when created scheduled); updated → post.updated (+ post.scheduled when
 * it became scheduled or its time moved); reviewed → post.approved or post.rejected (+ post.scheduled when the
 * approval scheduled it); deleted → post.deleted; terminal → post.published, post.failed or post.partial_failure.
 * Every post event's `data` names `post_id` and the post's `status` after the change.
 */
export function publicEventsOf(entry: Pick<OutboxEntry, '_id' | 'subject' | 'payload'>, namespace: string): PublicEventRecord[] {
  const bytes = Buffer.from(entry.payload, 'base64');
  const make = (kind: EventKind, workspaceId: number, occurredAt: string, data: Record<string, unknown>) =>
    publicEvent(eventIdOf(namespace, entry._id, kind), workspaceId, kind, new Date(occurredAt), data);
  switch (entry.subject) {
    case 'posts.post.created': {
      const e = PostCreated.decode(bytes);
      const data = { post_id: e.postId, status: e.status, scheduled_at: e.scheduledAt ?? null };
      return [make('post.created', e.workspaceId, e.occurredAt, data), ...(e.status === 'scheduled' && e.scheduledAt ? [make('post.scheduled', e.workspaceId, e.occurredAt, data)] : [])];
    }
    case 'posts.post.updated': {
      const e = PostUpdated.decode(bytes);
      const data = { post_id: e.postId, status: e.status, scheduled_at: e.scheduledAt ?? null, previous_status: e.previousStatus ?? null };
      const scheduled = e.status === 'scheduled' && !!e.scheduledAt && e.previousStatus !== undefined && (e.previousStatus !== 'scheduled' || e.previousScheduledAt !== e.scheduledAt);
      return [
        make('post.updated', e.workspaceId, e.occurredAt, data),
        ...(scheduled ? [make('post.scheduled', e.workspaceId, e.occurredAt, { post_id: e.postId, status: e.status, scheduled_at: e.scheduledAt ?? null })] : []),
      ];
    }
    case 'posts.post.reviewed': {
      const e = PostReviewed.decode(bytes);
      const data = { post_id: e.postId, status: e.status, scheduled_at: e.scheduledAt ?? null };
      const approved = e.reviewAction === 'approved';
      return [
        make(approved ? 'post.approved' : 'post.rejected', e.workspaceId, e.occurredAt, data),
        ...(approved && e.status === 'scheduled' && e.scheduledAt ? [make('post.scheduled', e.workspaceId, e.occurredAt, data)] : []),
      ];
    }
    case 'posts.post.deleted': {
      const e = PostDeleted.decode(bytes);
      return [make('post.deleted', e.workspaceId, e.occurredAt, { post_id: e.postId, status: e.status })];
    }
    case 'posts.post.terminal': {
      const e = PostTerminal.decode(bytes);
      const kind = TERMINAL_KIND[e.status];
      if (!kind) return [];
      const platforms = e.platforms.map((p) => ({
        platform: p.platform,
        platform_status: p.platformStatus,
        // A dry run's targets have no post on the platform.
        platform_post_id: p.platformStatus === 'dry_run' ? null : p.platformPostId,
        platform_error: p.platformError ?? null,
      }));
      return [make(kind, e.workspaceId, e.occurredAt, { post_id: e.postId, status: e.status, platforms, dry_run: e.dryRun ?? false })];
    }
    default:
      return [];
  }
}
