import { AppError, invalidParameters } from '@spa/errors';
import type { PostStatus } from '@spa/vocabulary';
import { buildPost, composeContext, contentsOf, validatePost, type NewPostContent, type PostInput } from './compose-post.js';
import type { Post } from './model.js';
import type { PostsDeps } from './ports.js';
import { getPost } from './read-posts.js';
import { assertRecurringAllowed } from './recurrence.js';
import { onlyRecurrence, updateRecurrence } from './update-recurrence.js';

/** Statuses in which a post can still be edited or deleted: nothing is being sent to a platform. */
export const EDITABLE_STATUSES: readonly PostStatus[] = ['draft', 'pending_review', 'scheduled'];

/** A partial update: absent fields keep their value; given lists replace the lists. */
export interface PostPatch {
  body?: string | undefined;
  status?: 'draft' | 'scheduled' | undefined;
  scheduledAt?: Date | null | undefined;
  flexible?: boolean | undefined;
  recurrenceJitterEnabled?: boolean | undefined;
  evergreen?: boolean | undefined;
  evergreenVariations?: string[] | undefined;
  recurrenceIntervalDays?: number | undefined;
  dryRun?: boolean | undefined;
  postContents?: NewPostContent[] | undefined;
  socialAccountIds?: number[] | undefined;
}

function currentInput(post: Post): PostInput {
  return {
    workspaceId: post.workspaceId,
    body: post.body,
    status: post.status === 'scheduled' ? 'scheduled' : post.status === 'draft' ? 'draft' : post.scheduledAt ? 'scheduled' : 'draft',
    scheduledAt: post.scheduledAt,
    flexible: post.flexible,
    recurrenceJitterEnabled: post.recurrenceJitterEnabled,
    evergreen: post.evergreen,
    evergreenVariations: post.evergreenVariations,
    recurrenceIntervalDays: post.recurrenceIntervalDays,
    dryRun: post.dryRun,
    postContents: post.postContents.map((c) => ({
      platform: c.platform,
      body: c.body,
      contentType: c.contentType,
      position: c.position,
      firstComment: c.firstComment,
      metadata: c.metadata,
    })),
    socialAccountIds: post.postAccounts.map((a) => a.socialAccountId),
    source: post.source,
  };
}

function assertEditable(post: Post, action: string): void {
  if (!EDITABLE_STATUSES.includes(post.status)) {
    throw new AppError('INVALID_STATE', `Post ${post.id} is ${post.status}; only ${EDITABLE_STATUSES.join(', ')} posts can be ${action}`);
  }
}

/**
 * Updates a post that is not yet being published. The result is validated as a whole, like a new
 * post; in a workspace that requires review an edited post goes back to pending_review.
 */
export async function updatePost(deps: PostsDeps, workspaceId: number, postId: number, patch: PostPatch): Promise<Post> {
  const current = await getPost(deps, workspaceId, postId);
  if (!EDITABLE_STATUSES.includes(current.status) && onlyRecurrence(patch)) return updateRecurrence(deps, current, patch);
  assertEditable(current, 'edited');
  const base = currentInput(current);
  const input: PostInput = {
    ...base,
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    scheduledAt: patch.scheduledAt === null ? undefined : (patch.scheduledAt ?? base.scheduledAt),
    // Dropping the time of a scheduled post makes it a draft unless the patch says otherwise.
    status: patch.status ?? (patch.scheduledAt === null ? 'draft' : patch.scheduledAt ? 'scheduled' : base.status),
  };
  const ctx = await composeContext(deps, workspaceId, input.socialAccountIds);
  assertRecurringAllowed(ctx.settings, [{ prefix: '', fields: patch }]);
  const problems = validatePost(input, ctx);
  if (problems.length) throw invalidParameters(problems);
  const keepsContents = patch.postContents === undefined && patch.socialAccountIds === undefined;
  const contentCount = contentsOf(input, ctx.accounts).length;
  const [contentIds, accountIds] = await Promise.all([
    keepsContents || !contentCount ? Promise.resolve(current.postContents.map((c) => c.id)) : deps.store.nextIds('post_contents', contentCount),
    patch.socialAccountIds === undefined || !input.socialAccountIds.length
      ? Promise.resolve(current.postAccounts.map((a) => a.id))
      : deps.store.nextIds('post_accounts', input.socialAccountIds.length),
  ]);
  const next = buildPost(input, ctx, { post: current.id, contents: contentIds, accounts: accountIds }, current);
  const saved = await deps.store.replace(current, next, {
    subject: 'posts.post.updated',
    msgId: `post-updated-${postId}-${next.updatedAt.getTime()}`,
    workspaceId,
    postId,
    status: next.status,
    occurredAt: next.updatedAt,
    scheduledAt: next.scheduledAt,
    previous: { status: current.status, scheduledAt: current.scheduledAt },
  });
  if (!saved) throw new AppError('INVALID_STATE', `Post ${postId} changed while it was being updated; read it again and retry`);
  deps.flushEvents();
  return saved;
}
