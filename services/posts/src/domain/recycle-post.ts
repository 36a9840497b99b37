import { AppError } from '@spa/errors';
import { CAPABILITIES } from '@spa/platforms';
import type { Logger } from '@spa/logger';
import { buildPost, validatePost, type PostInput } from './compose-post.js';
import { createdEvent } from './create-post.js';
import type { Post } from './model.js';
import { nextFreeSlot } from './next-slot.js';
import type { PostsDeps } from './ports.js';
import type { GenerationPort, RecycleClaim, RecycleStore } from './recycle-ports.js';
import { RECURRING_TIERS, recurrenceEarliest } from './recurrence.js';

export interface RecycleDeps extends PostsDeps {
  recycles: RecycleStore;
  generation: GenerationPort;
  /** [0, 1); the jitter's randomness. */
  random(): number;
  logger: Logger;
}

/** How many earlier versions a new one must differ from. */
export const DISTINCT_FROM_LAST = 3;
/** Tries at a generated wording that differs from the last versions before giving up (the event is retried later). */
const GENERATION_TRIES = 3;
/** The generation service's topic limit. */
const TOPIC_MAX = 500;
const ANGLE = 'A repeat of this evergreen post: say the same thing in new words, with a different opening.';

export type RecycleOutcome = 'recycled' | 'already_recycled' | 'not_recycled';

const same = (a: string, b: string) => a.trim() === b.trim();

/** The next text of a series: the next variation in rotation that differs from the last versions, else none. */
export function nextVariation(variations: string[], sequence: number, lastVersions: string[]): string | undefined {
  for (let k = 0; k < variations.length; k += 1) {
    const v = variations[(sequence - 1 + k) % variations.length]!;
    if (!lastVersions.some((l) => same(l, v))) return v;
  }
  return undefined;
}

function topicOf(body: string): string {
  const text = body.trim();
  if (text.length <= TOPIC_MAX) return text;
  const cut = text.slice(0, TOPIC_MAX);
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), TOPIC_MAX / 2)).trim();
}

/** The targeted platform with the shortest text limit: a generated wording written for it fits every target. */
const tightestPlatform = (original: Post) => original.postAccounts.map((a) => a.platform).sort((a, b) => CAPABILITIES[a].character_limit - CAPABILITIES[b].character_limit)[0];

async function freshWording(deps: RecycleDeps, original: Post, lastVersions: string[]): Promise<string> {
  const platform = tightestPlatform(original);
  if (!platform) throw new AppError('INVALID_STATE', `Post ${original.id} has no target to write a variation for`);
  for (let i = 0; i < GENERATION_TRIES; i += 1) {
    const body = await deps.generation.rewrite({ workspaceId: original.workspaceId, platform, topic: topicOf(original.body), angle: ANGLE });
    if (body.trim() && !lastVersions.some((l) => same(l, body))) return body;
  }
  throw new AppError('GENERATION_FAILED', `The generation service repeated one of the last ${DISTINCT_FROM_LAST} versions of post ${original.id} ${GENERATION_TRIES} times`);
}

/** Why a posting is not (or no longer) recycled, or null when it is. */
async function stopReason(deps: RecycleDeps, post: Post | null, original: Post | null): Promise<string | null> {
  if (!post || post.status !== 'posted' || !post.postedAt) return 'the post is not posted';
  if (!original) return 'the original post was deleted';
  if (!original.evergreen) return 'evergreen is off on the original';
  const settings = await deps.accounts.workspaceSettings(original.workspaceId);
  if (settings.tier && !RECURRING_TIERS.includes(settings.tier as never)) return `the workspace is on ${settings.tier}`;
  const ids = original.postAccounts.map((a) => a.socialAccountId);
  if (!ids.length) return 'the original has no target account';
  const accounts = await deps.accounts.socialAccounts(original.workspaceId, ids);
  if (ids.some((id) => !accounts.find((a) => a.id === id && !a.disconnected))) return 'a target account is disconnected or gone';
  return null;
}

/** Decides the recycle of a posting (text, time, id) and claims it; the stored claim wins a race. */
async function claimRecycle(deps: RecycleDeps, post: Post, original: Post, key: string): Promise<RecycleClaim> {
  const history = await deps.recycles.history(original.workspaceId, original.id);
  const sequence = post.id === original.id ? 1 : (history.find((h) => h.newPostId === post.id)?.sequence ?? history.length) + 1;
  const versions = [original.body, ...history.filter((h) => h.sequence < sequence).map((h) => h.body)];
  const lastVersions = versions.slice(-DISTINCT_FROM_LAST);
  const body = nextVariation(original.evergreenVariations, sequence, lastVersions) ?? (await freshWording(deps, original, lastVersions));
  const earliest = recurrenceEarliest(post.postedAt!, original.recurrenceIntervalDays, original.recurrenceJitterEnabled, deps.random);
  const first = original.postAccounts[0]!;
  const slot = await nextFreeSlot(deps, original.workspaceId, first.socialAccountId, earliest);
  const [newPostId] = await deps.store.nextIds('posts', 1);
  return deps.recycles.claim({
    id: key,
    workspaceId: original.workspaceId,
    originalId: original.id,
    sourcePostId: post.id,
    newPostId: newPostId!,
    sequence,
    body,
    scheduledAt: slot.at,
    claimedAt: deps.clock.now(),
    createdAt: null,
  });
}

/** The recycled post of a claim: the original's contents and targets with the claim's text and time. */
async function createRecycledPost(deps: RecycleDeps, original: Post, claim: RecycleClaim): Promise<Post | null> {
  const input: PostInput = {
    workspaceId: original.workspaceId,
    body: claim.body,
    status: claim.scheduledAt ? 'scheduled' : 'draft',
    scheduledAt: claim.scheduledAt ?? undefined,
    flexible: original.flexible,
    recurrenceJitterEnabled: original.recurrenceJitterEnabled,
    recurrenceIntervalDays: original.recurrenceIntervalDays,
    dryRun: original.dryRun,
    // The first part of each platform's content carries the new text; thread parts, media and first comments stay.
    postContents: original.postContents.map((c) => ({ ...c, body: c.position === 0 ? claim.body : c.body })),
    socialAccountIds: original.postAccounts.map((a) => a.socialAccountId),
    source: original.source,
  };
  const settings = await deps.accounts.workspaceSettings(original.workspaceId);
  const accounts = await deps.accounts.socialAccounts(original.workspaceId, input.socialAccountIds);
  // A recycle is the system's own placement: the plan's scheduling horizon bounds what clients ask for, not it.
  const ctx = { now: claim.claimedAt, settings: { ...settings, maxScheduleDays: undefined }, accounts };
  const problems = validatePost(input, ctx);
  if (problems.length) {
    deps.logger.warn({ post: original.id, recycle: claim.id, problems }, 'recycle: the recycled post would be invalid; series stopped');
    return null;
  }
  const contentCount = input.postContents.length;
  const [contentIds, accountIds] = await Promise.all([deps.store.nextIds('post_contents', contentCount), deps.store.nextIds('post_accounts', input.socialAccountIds.length)]);
  const post: Post = { ...buildPost(input, ctx, { post: claim.newPostId, contents: contentIds, accounts: accountIds }), recycledFromId: original.id };
  await deps.store.insertOnce(post, createdEvent(post));
  await deps.recycles.markCreated(claim.id, deps.clock.now());
  deps.flushEvents();
  return post;
}

/**
 * Recycles an evergreen post once it is posted: a new post pointing at the series' original, in the
 * first account's next free slot after the original's interval (jittered when asked), its text the
 * next of the original's variations or a fresh wording from the generation service, never one of the
 * last 3 versions. Exactly once per posting: the claim named after the posting is inserted uniquely
 * and fixes the new post's id, so a repeat, a race between replicas or a crash between the two
 * writes ends with one post. The series stops when the original is deleted, evergreen is turned off,
 * a target account is disconnected, or the plan no longer allows recurring posts.
 */
export async function recyclePosting(deps: RecycleDeps, event: { workspaceId: number; postId: number; status: string; recyclable?: boolean | undefined }): Promise<RecycleOutcome> {
  // The event says whether the post is evergreen or a recycle (events from before that field: read it).
  if (event.status !== 'posted' || event.recyclable === false) return 'not_recycled';
  const post = await deps.store.get(event.workspaceId, event.postId);
  if (!post || (!post.evergreen && post.recycledFromId === undefined)) return 'not_recycled';
  const original = post.recycledFromId === undefined ? post : await deps.store.get(post.workspaceId, post.recycledFromId);
  const key = `${post.id}:${post.postedAt?.getTime() ?? 0}`;
  const held = await deps.recycles.get(key);
  if (held?.createdAt) return 'already_recycled';
  // A claim whose post was never stored (its holder died, or is still at it): finish it the same way.
  if (held) return original && (await createRecycledPost(deps, original, held)) ? 'recycled' : 'not_recycled';
  const reason = await stopReason(deps, post, original);
  if (reason) {
    deps.logger.info({ post: post.id, reason }, 'recycle: not recycled');
    return 'not_recycled';
  }
  const claim = await claimRecycle(deps, post, original!, key);
  if (claim.createdAt) return 'already_recycled';
  return (await createRecycledPost(deps, original!, claim)) ? 'recycled' : 'not_recycled';
}
