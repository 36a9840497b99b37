import { AppError } from '@spa/errors';
import type { Post } from './model.js';
import type { WorkspaceSettings } from './ports.js';

/**
 * Which posts need a reviewer's approval, in a workspace that requires review. A post is created, and
 * sent back after any edit, as `pending_review`; only `POST /posts/{id}/approve` takes it on (to
 * `scheduled` with a time, else `draft`). A rejected post goes back to `draft` and needs approval again: it
 * is sent to review by editing it. Publishing (now or into the next free slot) takes only an approved post:
 * a rejected one, or one never approved (a draft from before the workspace required review), is refused,
 * so that no path goes around the reviewer.
 */
export function needsApproval(post: Post, settings: Pick<WorkspaceSettings, 'reviewRequired'>): boolean {
  return settings.reviewRequired && post.reviewAction !== 'approved';
}

/** Refuses to publish or schedule a post that needs approval first (INVALID_STATE, saying why and what to do). */
export function assertApproved(post: Post, settings: Pick<WorkspaceSettings, 'reviewRequired'>, action: string): void {
  if (!needsApproval(post, settings)) return;
  const why = post.reviewAction === 'rejected' ? `it was rejected${post.rejectionReason ? ` (${post.rejectionReason})` : ''}` : 'it has not been approved';
  throw new AppError('INVALID_STATE', `Post ${post.id} cannot be ${action}: this workspace requires review and ${why}; edit it to send it to review, then approve it`);
}
