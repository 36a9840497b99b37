import { notFound } from '@spa/errors';
import type { Post } from './model.js';
import type { ListPostsQuery, ListPostsResult, PostsDeps } from './ports.js';

export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 100;

/** Lists a workspace's posts; the page size is clamped to 200. Answers with the limit and offset applied. */
export async function listPosts(deps: PostsDeps, query: ListPostsQuery): Promise<ListPostsResult & { limit: number; offset: number }> {
  const limit = Math.min(Math.max(query.limit || DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const offset = Math.max(query.offset, 0);
  return { ...(await deps.store.list({ ...query, limit, offset })), limit, offset };
}

export async function getPost(deps: PostsDeps, workspaceId: number, postId: number): Promise<Post> {
  const post = await deps.store.get(workspaceId, postId);
  if (!post) throw notFound(`Post ${postId}`);
  return post;
}
