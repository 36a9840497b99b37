import { AppError } from '@spa/errors';
import type { Post } from './model.js';
import type { PostsDeps } from './ports.js';
import { getPost } from './read-posts.js';

/** Deletes a post that is not being published; answers the post as it was. */
export async function deletePost(deps: PostsDeps, workspaceId: number, postId: number): Promise<Post> {
  const current = await getPost(deps, workspaceId, postId);
  if (current.status === 'publishing') {
    throw new AppError('INVALID_STATE', `Post ${postId} is being published; it can be deleted once it is posted, failed or partial`);
  }
  const now = deps.clock.now();
  const deleted = await deps.store.remove(current, {
    subject: 'posts.post.deleted',
    msgId: `post-deleted-${postId}-${now.getTime()}`,
    workspaceId,
    postId,
    status: current.status,
    occurredAt: now,
  });
  if (!deleted) throw new AppError('INVALID_STATE', `Post ${postId} changed while it was being deleted; read it again and retry`);
  deps.flushEvents();
  return current;
}
