import { invalidParameters } from '@spa/errors';
import { composeContext, validatePost, type PostInput } from './compose-post.js';
import { buildNewPosts, createdEvent } from './create-post.js';
import type { Post } from './model.js';
import type { PostsDeps } from './ports.js';
import { assertRecurringAllowed } from './recurrence.js';

export const MAX_BULK_POSTS = 100;

/** Creates up to 100 posts validated as a whole: when any is invalid, nothing is stored and each problem names its item. */
export async function bulkCreatePosts(deps: PostsDeps, workspaceId: number, inputs: PostInput[]): Promise<Post[]> {
  if (!inputs.length) throw invalidParameters(['posts must contain at least one post']);
  if (inputs.length > MAX_BULK_POSTS) throw invalidParameters([`posts may contain at most ${MAX_BULK_POSTS} posts (got ${inputs.length})`]);
  const ctx = await composeContext(
    deps,
    workspaceId,
    inputs.flatMap((i) => i.socialAccountIds),
  );
  assertRecurringAllowed(
    ctx.settings,
    inputs.map((fields, i) => ({ prefix: `posts[${i}].`, fields })),
  );
  const problems = inputs.flatMap((input, i) => validatePost(input, ctx).map((p) => `posts[${i}]: ${p}`));
  if (problems.length) throw invalidParameters(problems);
  const posts = await buildNewPosts(deps, inputs, ctx);
  await deps.store.insert(posts, posts.map(createdEvent));
  deps.flushEvents();
  return posts;
}
