import { checkPostContent, checkPostOptions, POLL_MINUTES } from '@spa/platforms';
import type { ContentType, Platform } from '@spa/vocabulary';
import type { Post, PostAccount, PostContent } from './model.js';
import type { PostsDeps, TargetAccount, WorkspaceSettings } from './ports.js';
import { DEFAULT_RECURRENCE_INTERVAL_DAYS, recurrenceProblems } from './recurrence.js';

export interface NewPostContent {
  platform: Platform;
  body?: string | undefined;
  contentType?: ContentType | undefined;
  position?: number | undefined;
  firstComment?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Everything a client may say about a post when creating it (or its full state when updating it). */
export interface PostInput {
  workspaceId: number;
  body: string;
  status?: 'draft' | 'scheduled' | undefined;
  scheduledAt?: Date | undefined;
  flexible?: boolean | undefined;
  recurrenceJitterEnabled?: boolean | undefined;
  evergreen?: boolean | undefined;
  evergreenVariations?: string[] | undefined;
  recurrenceIntervalDays?: number | undefined;
  dryRun?: boolean | undefined;
  postContents: NewPostContent[];
  socialAccountIds: number[];
  source: string;
}

/** What validating and building a post needs besides the input: facts read beforehand. */
export interface ComposeContext {
  now: Date;
  settings: WorkspaceSettings;
  /** The workspace's accounts among those the input names (others are not connected). */
  accounts: TargetAccount[];
}

/**
 * Media and poll references in a content's metadata: `media: [{r2_key, type: image|video|document}]`
 * (uploaded through the media endpoints), `poll: {options: string[], duration_minutes}`. The per-platform options
 * beside them (board_id, privacy_level, …) are checked by checkPostOptions.
 */
interface Attachments {
  images: number;
  video: boolean;
  document: boolean;
  pollOptions?: string[] | undefined;
}

function attachmentsOf(metadata: Record<string, unknown> | undefined, where: string, problems: string[]): Attachments {
  const out: Attachments = { images: 0, video: false, document: false };
  const media = metadata?.media;
  if (media !== undefined) {
    const items = Array.isArray(media) ? media : [];
    if (!Array.isArray(media)) problems.push(`${where}.metadata.media must be a list of {r2_key, type}`);
    items.forEach((item: unknown, i) => {
      const m = item as { r2_key?: unknown; type?: unknown } | null;
      if (!m || typeof m.r2_key !== 'string' || !['image', 'video', 'document'].includes(String(m.type))) {
        problems.push(`${where}.metadata.media[${i}] must be {r2_key: string, type: image|video|document}`);
      } else if (m.type === 'image') out.images += 1;
      else if (m.type === 'video') out.video = true;
      else out.document = true;
    });
  }
  const poll = metadata?.poll as { options?: unknown; duration_minutes?: unknown } | undefined;
  if (poll !== undefined) {
    if (!poll || !Array.isArray(poll.options) || !poll.options.every((o) => typeof o === 'string')) {
      problems.push(`${where}.metadata.poll must be {options: string[], duration_minutes}`);
    } else out.pollOptions = poll.options as string[];
    const minutes = poll?.duration_minutes;
    if (minutes !== undefined && (!Number.isInteger(minutes) || (minutes as number) < POLL_MINUTES.min || (minutes as number) > POLL_MINUTES.max)) {
      problems.push(`${where}.metadata.poll.duration_minutes must be a whole number of minutes from ${POLL_MINUTES.min} to ${POLL_MINUTES.max}`);
    }
  }
  return out;
}

/** The content type a content has when none is given: what its attachments make it. */
function impliedContentType(a: Attachments): ContentType {
  if (a.pollOptions) return 'poll';
  if (a.document) return 'document';
  if (a.video) return 'video';
  return a.images ? 'image' : 'text';
}

const DAY_MS = 86_400_000;

export const statusOf = (input: PostInput): 'draft' | 'scheduled' => input.status ?? (input.scheduledAt ? 'scheduled' : 'draft');

const targetsOf = (input: PostInput, accounts: TargetAccount[]): TargetAccount[] => input.socialAccountIds.map((id) => accounts.find((a) => a.id === id)).filter((a): a is TargetAccount => !!a);

/** Every problem with a post, one message each naming the field; empty when the post is valid. */
export function validatePost(input: PostInput, ctx: ComposeContext): string[] {
  const problems: string[] = [];
  const status = statusOf(input);
  if (status === 'scheduled') {
    if (!input.scheduledAt) problems.push('scheduled_at is required when status is scheduled');
    else if (input.scheduledAt.getTime() <= ctx.now.getTime()) problems.push('scheduled_at must be in the future');
    else if (ctx.settings.maxScheduleDays !== undefined && input.scheduledAt.getTime() > ctx.now.getTime() + ctx.settings.maxScheduleDays * DAY_MS) {
      problems.push(
        `scheduled_at is more than ${ctx.settings.maxScheduleDays} days ahead; the ${ctx.settings.tier ?? 'current'} plan schedules up to ${ctx.settings.maxScheduleDays} days ahead (max_schedule_days)`,
      );
    }
    if (!input.socialAccountIds.length) problems.push('post_accounts must name at least one account when status is scheduled');
  }
  if (!input.body.trim() && !input.postContents.length) problems.push('body is required when post_contents is empty');
  problems.push(...recurrenceProblems(input));

  const seenAccounts = new Set<number>();
  input.socialAccountIds.forEach((id, i) => {
    if (seenAccounts.has(id)) problems.push(`post_accounts[${i}].social_account_id ${id} is listed twice`);
    seenAccounts.add(id);
    const account = ctx.accounts.find((a) => a.id === id);
    if (!account) problems.push(`post_accounts[${i}].social_account_id ${id} is not a connected account of this workspace`);
    else if (account.disconnected && status === 'scheduled') {
      problems.push(`post_accounts[${i}].social_account_id ${id} is disconnected; reconnect it before scheduling`);
    }
  });

  const targetPlatforms = new Set(targetsOf(input, ctx.accounts).map((a) => a.platform));
  const seenContents = new Set<string>();
  input.postContents.forEach((c, i) => {
    const key = `${c.platform}:${c.position ?? 0}`;
    if (seenContents.has(key)) problems.push(`post_contents[${i}] repeats platform ${c.platform} at position ${c.position ?? 0}`);
    seenContents.add(key);
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
  // Each content against its platform's capabilities (length counted the platform's way, types, media).
  contentsOf(input, ctx.accounts).forEach((c, i) => {
    const where = i < input.postContents.length ? `post_contents[${i}]` : `${c.platform} (from the top-level body)`;
    const attachments = attachmentsOf(c.metadata, where, problems);
    problems.push(
      ...checkPostContent(
        c.platform,
        {
          body: c.body ?? input.body,
          contentType: c.contentType ?? impliedContentType(attachments),
          imageCount: attachments.images,
          hasVideo: attachments.video,
          hasDocument: attachments.document,
          ...(attachments.pollOptions ? { pollOptions: attachments.pollOptions } : {}),
        },
        where,
      ),
      // Per-platform choices (board, link, title, privacy, media fit): read by that platform only, values checked.
      ...checkPostOptions(c.platform, c.metadata, `${where}.metadata`),
    );
  });
  return problems;
}

/** The contents a post will have: those given, plus one from the top-level body for each targeted platform without one. */
export function contentsOf(input: PostInput, accounts: TargetAccount[]): NewPostContent[] {
  const contents = [...input.postContents];
  for (const { platform } of targetsOf(input, accounts)) {
    if (!contents.some((c) => c.platform === platform)) contents.push({ platform });
  }
  return contents;
}

export interface PostIds {
  post: number;
  contents: number[];
  accounts: number[];
}

/** Builds a valid input into the stored post (validatePost first). Keeps `previous`'s identity and history when given. */
export function buildPost(input: PostInput, ctx: ComposeContext, ids: PostIds, previous?: Post): Post {
  const contents = contentsOf(input, ctx.accounts);
  const postContents: PostContent[] = contents.map((c, i) => ({
    id: ids.contents[i] as number,
    platform: c.platform,
    body: c.body ?? input.body,
    contentType: c.contentType ?? impliedContentType(attachmentsOf(c.metadata, '', [])),
    position: c.position ?? 0,
    firstComment: c.firstComment,
    metadata: c.metadata ?? {},
  }));
  const postAccounts: PostAccount[] = targetsOf(input, ctx.accounts).map((a, i) => ({
    id: ids.accounts[i] as number,
    socialAccountId: a.id,
    platform: a.platform,
    username: a.username,
  }));
  return {
    ...previous,
    id: ids.post,
    workspaceId: input.workspaceId,
    // A post awaiting review keeps waiting when edited; in a review workspace every edit needs review.
    status: ctx.settings.reviewRequired || previous?.status === 'pending_review' ? 'pending_review' : statusOf(input),
    flexible: input.flexible ?? false,
    scheduledAt: input.scheduledAt,
    disconnected: previous?.disconnected ?? false,
    source: previous?.source ?? input.source,
    recurrenceJitterEnabled: input.recurrenceJitterEnabled ?? false,
    evergreen: input.evergreen ?? false,
    evergreenVariations: input.evergreenVariations ?? [],
    recurrenceIntervalDays: input.recurrenceIntervalDays ?? DEFAULT_RECURRENCE_INTERVAL_DAYS,
    createdAt: previous?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
    body: input.body,
    postContents,
    postAccounts,
    dryRun: input.dryRun ?? false,
  };
}

/** Reads what composing needs: the workspace's review setting and the named accounts. */
export async function composeContext(deps: Pick<PostsDeps, 'accounts' | 'clock'>, workspaceId: number, accountIds: number[]): Promise<ComposeContext> {
  const unique = [...new Set(accountIds)];
  const [settings, accounts] = await Promise.all([deps.accounts.workspaceSettings(workspaceId), unique.length ? deps.accounts.socialAccounts(workspaceId, unique) : Promise.resolve([])]);
  return { now: deps.clock.now(), settings, accounts };
}
