import type { EventKind, PostEventKind, SubscribableKind } from './model.js';

export interface PlatformResult {
  platform: string;
  platformStatus: string;
  platformPostId: string;
  platformError?: string | undefined;
}

/** A post that reached a terminal state, as told by the publisher. */
export interface PostTerminalEvent {
  /** Identifies the source event (its Nats-Msg-Id); handling it twice creates nothing more. */
  sourceKey: string;
  workspaceId: number;
  postId: number;
  status: string;
  occurredAt: Date;
  platforms: PlatformResult[];
  /** The post was a dry run (its targets are `dry_run`, published nowhere). */
  dryRun?: boolean | undefined;
  /** The event's id in the event log (GET /events), sent as `event_id`. */
  eventId?: string | undefined;
}

/** A lifecycle event of the event log, as its owner published it. */
export interface LoggedEvent {
  id: string;
  workspaceId: number;
  kind: SubscribableKind;
  version: number;
  occurredAt: Date;
  data: Record<string, unknown>;
}

const EVENT_OF_STATUS: Record<string, PostEventKind> = { posted: 'post.published', failed: 'post.failed', partial: 'post.partial_failure' };

export function eventKindOf(status: string): PostEventKind | undefined {
  return EVENT_OF_STATUS[status];
}

/** The public JSON body, exactly as in the contract (snake_case, platform_error null when absent). */
export function payloadJson(id: string, event: EventKind, postId: number, occurredAt: Date, status: string, platforms: PlatformResult[], dryRun = false, eventId?: string): string {
  return JSON.stringify({
    id,
    ...(eventId ? { event_id: eventId } : {}),
    event,
    post_id: postId,
    occurred_at: occurredAt.toISOString(),
    data: {
      status,
      platforms: platforms.map((p) => ({
        platform: p.platform,
        platform_status: p.platformStatus,
        // A dry run's targets have no post on the platform.
        platform_post_id: p.platformStatus === 'dry_run' ? null : p.platformPostId,
        platform_error: p.platformError ?? null,
      })),
      dry_run: dryRun,
    },
  });
}

/**
 * The JSON body of a lifecycle event's delivery: `id` (this delivery's), `event_id` (the event log's), the kind and
 * its data version, and `data` as the owner made it; a post's events also carry `post_id` at the top, as the
 * terminal ones do.
 */
export function lifecyclePayloadJson(id: string, e: LoggedEvent): string {
  const postId = e.kind.startsWith('post.') ? e.data.post_id : undefined;
  return JSON.stringify({
    id,
    event_id: e.id,
    event: e.kind,
    version: e.version,
    ...(typeof postId === 'number' ? { post_id: postId } : {}),
    occurred_at: e.occurredAt.toISOString(),
    data: e.data,
  });
}
