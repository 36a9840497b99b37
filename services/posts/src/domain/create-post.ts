import { invalidParameters } from '@spa/errors';
import type { ContentType, Platform } from '@spa/vocabulary';
import type { Post, PostAccount, PostContent } from './model.js';
import type { PostsDeps, TargetAccount } from './ports.js';

export interface NewPostContent {
  platform: Platform;
  body?: string | undefined;
  contentType?: ContentType | undefined;
  position?: number | undefined;
  firstComment?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export interface NewPost {
  workspaceId: number;
  body: string;
  status?: 'draft' | 'scheduled' | undefined;
  scheduledAt?: Date | undefined;
  flexible?: boolean | undefined;
  recurrenceJitterEnabled?: boolean | undefined;
  evergreen?: boolean | undefined;
  evergreenVariations?: string[] | undefined;
  dryRun?: boolean | undefined;
  postContents: NewPostContent[];
  socialAccountIds: number[];
  source: string;
}

/** Which content types each platform can publish beyond plain text (the rest of the capability table comes with publishing). */
const CONTENT_TYPE_PLATFORMS: Partial<Record<ContentType, readonly Platform[]>> = {
  document: ['linkedin'],
  poll: ['twitter', 'linkedin'],
};

function checkTargets(input: NewPost, accounts: TargetAccount[], problems: string[]): void {
  const seen = new Set<number>();
  input.socialAccountIds.forEach((id, i) => {
    if (seen.has(id)) problems.push(`post_accounts[${i}].social_account_id ${id} is listed twice`);
    seen.add(id);
    const account = accounts.find((a) => a.id === id);
    if (!account) problems.push(`post_accounts[${i}].social_account_id ${id} is not a connected account of this workspace`);
    else if (account.disconnected && input.status === 'scheduled') {
      problems.push(`post_accounts[${i}].social_account_id ${id} is disconnected; reconnect it before scheduling`);
    }
  });
}

function checkContents(input: NewPost, targetPlatforms: Set<Platform>, problems: string[]): void {
  const seen = new Set<string>();
  input.postContents.forEach((c, i) => {
    const key = `${c.platform}:${c.position ?? 0}`;
    if (seen.has(key)) problems.push(`post_contents[${i}] repeats platform ${c.platform} at position ${c.position ?? 0}`);
    seen.add(key);
    const allowed = c.contentType ? CONTENT_TYPE_PLATFORMS[c.contentType] : undefined;
    if (allowed && !allowed.includes(c.platform)) {
      problems.push(`post_contents[${i}].content_type ${c.contentType} is not supported on ${c.platform} (only ${allowed.join(', ')})`);
    }
    if (targetPlatforms.size && !targetPlatforms.has(c.platform)) {
      problems.push(`post_contents[${i}].platform ${c.platform} is not targeted by any of post_accounts`);
    }
    if (!(c.body ?? input.body).trim()) problems.push(`post_contents[${i}].body is empty and the post has no top-level body`);
  });
  for (const platform of targetPlatforms) {
    if (!input.postContents.some((c) => c.platform === platform) && !input.body.trim()) {
      problems.push(`${platform} is targeted but has no post_contents entry and the post has no top-level body`);
    }
  }
}

/**
 * Creates a draft or scheduled post for the workspace's own accounts. Posts of a workspace that
 * requires review start in pending_review.
 */
export async function createPost(deps: PostsDeps, input: NewPost): Promise<Post> {
  const now = deps.clock.now();
  const status = input.status ?? (input.scheduledAt ? 'scheduled' : 'draft');
  const problems: string[] = [];
  if (status === 'scheduled') {
    if (!input.scheduledAt) problems.push('scheduled_at is required when status is scheduled');
    else if (input.scheduledAt.getTime() <= now.getTime()) problems.push('scheduled_at must be in the future');
    if (!input.socialAccountIds.length) problems.push('post_accounts must name at least one account when status is scheduled');
  }
  if (!input.body.trim() && !input.postContents.length) problems.push('body is required when post_contents is empty');

  const [settings, accounts] = await Promise.all([
    deps.accounts.workspaceSettings(input.workspaceId),
    input.socialAccountIds.length ? deps.accounts.socialAccounts(input.workspaceId, input.socialAccountIds) : Promise.resolve([]),
  ]);
  checkTargets({ ...input, status }, accounts, problems);
  const targets = input.socialAccountIds.map((id) => accounts.find((a) => a.id === id)).filter((a): a is TargetAccount => !!a);
  const targetPlatforms = new Set(targets.map((a) => a.platform));
  checkContents(input, targetPlatforms, problems);
  if (problems.length) throw invalidParameters(problems);

  // Every targeted platform gets a content; the top-level body stands in where none was given.
  const contents: NewPostContent[] = [...input.postContents];
  for (const platform of targetPlatforms) {
    if (!contents.some((c) => c.platform === platform)) contents.push({ platform });
  }
  const [postIds, contentIds, accountIds] = await Promise.all([
    deps.store.nextIds('posts', 1),
    contents.length ? deps.store.nextIds('post_contents', contents.length) : Promise.resolve([]),
    targets.length ? deps.store.nextIds('post_accounts', targets.length) : Promise.resolve([]),
  ]);
  const id = postIds[0] as number;
  const postContents: PostContent[] = contents.map((c, i) => ({
    id: contentIds[i] as number,
    platform: c.platform,
    body: c.body ?? input.body,
    contentType: c.contentType ?? 'text',
    position: c.position ?? 0,
    firstComment: c.firstComment,
    metadata: c.metadata ?? {},
  }));
  const postAccounts: PostAccount[] = targets.map((a, i) => ({
    id: accountIds[i] as number,
    socialAccountId: a.id,
    platform: a.platform,
    username: a.username,
  }));
  const post: Post = {
    id,
    workspaceId: input.workspaceId,
    status: settings.reviewRequired ? 'pending_review' : status,
    flexible: input.flexible ?? false,
    scheduledAt: input.scheduledAt,
    disconnected: false,
    source: input.source,
    recurrenceJitterEnabled: input.recurrenceJitterEnabled ?? false,
    evergreen: input.evergreen ?? false,
    evergreenVariations: input.evergreenVariations ?? [],
    createdAt: now,
    updatedAt: now,
    body: input.body,
    postContents,
    postAccounts,
    dryRun: input.dryRun ?? false,
  };
  await deps.store.insert(post, [
    { subject: 'posts.post.created', msgId: `post-created-${id}-${now.getTime()}`, workspaceId: post.workspaceId, postId: id, status: post.status, occurredAt: now },
  ]);
  deps.flushEvents();
  return post;
}
