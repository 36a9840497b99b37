import type { EventKind, PostEventKind } from './model.js';

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
}

const EVENT_OF_STATUS: Record<string, PostEventKind> = { posted: 'post.published', failed: 'post.failed', partial: 'post.partial_failure' };

export function eventKindOf(status: string): PostEventKind | undefined {
  return EVENT_OF_STATUS[status];
}

/** The public JSON body, exactly as in the contract (snake_case, platform_error null when absent). */
export function payloadJson(id: string, event: EventKind, postId: number, occurredAt: Date, status: string, platforms: PlatformResult[], dryRun = false): string {
  return JSON.stringify({
    id,
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
