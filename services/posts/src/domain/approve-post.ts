import { AppError } from '@spa/errors';
import type { Post } from './model.js';
import type { PostsDeps } from './ports.js';
import { getPost } from './read-posts.js';

/** Approves a post awaiting review: it becomes scheduled when it has a time, otherwise a draft. */
export async function approvePost(deps: PostsDeps, workspaceId: number, postId: number): Promise<Post> {
  const current = await getPost(deps, workspaceId, postId);
  if (current.status !== 'pending_review') {
    throw new AppError('INVALID_STATE', `Post ${postId} is ${current.status}; only a pending_review post can be approved`);
  }
  const now = deps.clock.now();
  const status = current.scheduledAt ? 'scheduled' : 'draft';
  const approved = await deps.store.transition(
    workspaceId,
    postId,
    'pending_review',
    { status, reviewedAt: now, reviewAction: 'approved', updatedAt: now },
    { subject: 'posts.post.reviewed', msgId: `post-reviewed-${postId}-${now.getTime()}`, workspaceId, postId, status, reviewAction: 'approved', occurredAt: now },
  );
  if (!approved) {
    throw new AppError('INVALID_STATE', `Post ${postId} is no longer pending_review; only a pending_review post can be approved`);
  }
  deps.flushEvents();
  return approved;
}
