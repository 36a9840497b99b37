import { AppError, invalidParameters } from '@spa/errors';
import type { Post } from './model.js';
import { dispatch } from './publishing.js';
import type { PostsDeps } from './ports.js';
import { getPost } from './read-posts.js';

async function review(deps: PostsDeps, workspaceId: number, postId: number, action: 'approved' | 'rejected', reason?: string): Promise<Post> {
  const verb = action === 'approved' ? 'approved' : 'rejected';
  const current = await getPost(deps, workspaceId, postId);
  if (current.status !== 'pending_review') {
    throw new AppError('INVALID_STATE', `Post ${postId} is ${current.status}; only a pending_review post can be ${verb}`);
  }
  const now = deps.clock.now();
  // Approved: scheduled when it has a time, else a draft. Rejected: back to draft for editing.
  const status = action === 'approved' && current.scheduledAt ? 'scheduled' : 'draft';
  const reviewed = await deps.store.transition(
    workspaceId,
    postId,
    'pending_review',
    { status, reviewedAt: now, reviewAction: action, rejectionReason: reason, updatedAt: now },
    { subject: 'posts.post.reviewed', msgId: `post-reviewed-${postId}-${now.getTime()}`, workspaceId, postId, status, reviewAction: action, occurredAt: now, scheduledAt: current.scheduledAt },
  );
  if (!reviewed) throw new AppError('INVALID_STATE', `Post ${postId} is no longer pending_review; only a pending_review post can be ${verb}`);
  deps.flushEvents();
  if (reviewed.status !== 'scheduled' || reviewed.scheduledAt!.getTime() > now.getTime()) return reviewed;
  // Approved after its time: handed to the publisher now (the scheduler's passes read a due time that far back
  // only in their full scans). The approval stands either way; if this fails, the next full scan hands it over.
  const handed = await dispatch(deps, [reviewed]).catch(() => [false]);
  return handed[0] ? ((await deps.store.get(workspaceId, postId)) ?? reviewed) : reviewed;
}

/** Approves a post awaiting review: it becomes scheduled when it has a time, otherwise a draft. */
export function approvePost(deps: PostsDeps, workspaceId: number, postId: number): Promise<Post> {
  return review(deps, workspaceId, postId, 'approved');
}

/** Rejects a post awaiting review with a reason; it returns to draft. */
export function rejectPost(deps: PostsDeps, workspaceId: number, postId: number, reason: string): Promise<Post> {
  const trimmed = reason.trim();
  if (!trimmed) throw invalidParameters(['rejection_reason must not be empty']);
  if (trimmed.length > 2000) throw invalidParameters(['rejection_reason must be at most 2000 characters']);
  return review(deps, workspaceId, postId, 'rejected', trimmed);
}
