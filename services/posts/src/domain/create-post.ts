import { invalidParameters } from '@spa/errors';
import { buildPost, composeContext, contentsOf, validatePost, type ComposeContext, type PostInput } from './compose-post.js';
import type { Post, PostEvent } from './model.js';
import type { PostsDeps } from './ports.js';
import { assertRecurringAllowed } from './recurrence.js';

export type { NewPostContent, PostInput as NewPost } from './compose-post.js';

export const createdEvent = (post: Post): PostEvent => ({
  subject: 'posts.post.created',
  msgId: `post-created-${post.id}-${post.createdAt.getTime()}`,
  workspaceId: post.workspaceId,
  postId: post.id,
  status: post.status,
  occurredAt: post.createdAt,
  scheduledAt: post.scheduledAt,
});

/** Allocates the ids of valid inputs and builds their posts. */
export async function buildNewPosts(deps: PostsDeps, inputs: PostInput[], ctx: ComposeContext): Promise<Post[]> {
  const contentCounts = inputs.map((input) => contentsOf(input, ctx.accounts).length);
  const accountCounts = inputs.map((input) => input.socialAccountIds.length);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const [postIds, contentIds, accountIds] = await Promise.all([
    deps.store.nextIds('posts', inputs.length),
    sum(contentCounts) ? deps.store.nextIds('post_contents', sum(contentCounts)) : Promise.resolve([]),
    sum(accountCounts) ? deps.store.nextIds('post_accounts', sum(accountCounts)) : Promise.resolve([]),
  ]);
  let c = 0;
  let a = 0;
  return inputs.map((input, i) => {
    const ids = {
      post: postIds[i] as number,
      contents: contentIds.slice(c, (c += contentCounts[i] as number)),
      accounts: accountIds.slice(a, (a += accountCounts[i] as number)),
    };
    return buildPost(input, ctx, ids);
  });
}

/**
 * Creates a draft or scheduled post for the workspace's own accounts. Posts of a workspace that
 * requires review start in pending_review.
 */
export async function createPost(deps: PostsDeps, input: PostInput): Promise<Post> {
  const ctx = await composeContext(deps, input.workspaceId, input.socialAccountIds);
  assertRecurringAllowed(ctx.settings, [{ prefix: '', fields: input }]);
  const problems = validatePost(input, ctx);
  if (problems.length) throw invalidParameters(problems);
  const [post] = await buildNewPosts(deps, [input], ctx);
  await deps.store.insert([post!], [createdEvent(post!)]);
  deps.flushEvents();
  return post!;
}
