import { AppError, invalidParameters } from '@spa/errors';
import { movedToPublishing, type Dispatch, type Post } from './model.js';
import { assertApproved } from './approval.js';
import { nextFreeSlot, SLOT_HORIZON_DAYS } from './next-slot.js';
import type { PostsDeps } from './ports.js';
import { getPost } from './read-posts.js';

/** How long a dispatch claim stands before another dispatcher may finish its work. */
export const DISPATCH_LEASE_MS = 15_000;

const dispatchId = (post: Post): string => `${post.id}:${post.scheduledAt?.getTime() ?? 0}`;

/** A claim another dispatcher took: ours to finish only when its holder died before sending the job. */
async function abandoned(deps: PostsDeps, id: string, now: Date): Promise<boolean> {
  const held = await deps.store.getDispatch(id);
  return !!held && !held.jobSentAt && now.getTime() - held.claimedAt.getTime() >= DISPATCH_LEASE_MS;
}

type Job = Parameters<PostsDeps['jobs']['send']>[0];

/**
 * Hands scheduled posts to the publisher, each at most once per due time across dispatchers, in a
 * few writes for the whole batch: the claims (uniquely named documents) in one insert; the won
 * posts moved to publishing in one write; their jobs sent (a job's message id is its claim's, so
 * sending one again is harmless); the claims then finished (removed) in one write. A claim stands only
 * while its job is unsent: one whose holder died before sending is finished by the next dispatcher
 * after the lease. Answers, per post, whether this call handed it over.
 */
export async function dispatch(deps: PostsDeps, posts: Post[]): Promise<boolean[]> {
  if (!posts.length) return [];
  const now = deps.clock.now();
  const claims: Dispatch[] = posts.map((post) => ({ id: dispatchId(post), workspaceId: post.workspaceId, postId: post.id, claimedAt: now }));
  const won = await deps.store.claimDispatches(claims);
  const takenOver = await Promise.all(claims.map(async (claim, i) => !won[i] && (await abandoned(deps, claim.id, now))));
  const mine = posts.filter((_, i) => won[i] || takenOver[i]);
  const moved = await deps.store.startPublishing(mine, now);
  if (moved === mine.length) {
    const sent = await sendJobs(
      deps,
      mine.map((post) => ({ dispatchId: dispatchId(post), post: movedToPublishing(post, now), moved: true })),
    );
    return claims.map((c) => sent.has(c.id));
  }
  // Not every one was still as read (rare): read them. One this call moved goes (it is publishing as of `now`);
  // so does one a dead claimer moved (a claim taken over). One another live dispatcher moved has had its job
  // sent (its claim is gone, which is how this call won a claim of its own); one edited or deleted meanwhile
  // has nothing to publish now (edited but still due, it is claimed again by the next pass). Those claims are
  // finished unsent.
  const current = await Promise.all(mine.map((p) => deps.store.get(p.workspaceId, p.id)));
  const wasTakenOver = new Set(posts.filter((_, i) => takenOver[i]));
  const jobs: Job[] = [];
  const done: string[] = [];
  for (const [i, post] of current.entries()) {
    const id = dispatchId(mine[i]!);
    const ours = post?.status === 'publishing' && (post.updatedAt.getTime() === now.getTime() || wasTakenOver.has(mine[i]!));
    if (ours) jobs.push({ dispatchId: id, post, moved: false });
    else done.push(id);
  }
  const sent = await sendJobs(deps, jobs, done);
  return claims.map((c) => sent.has(c.id));
}

/**
 * Sends the claims' jobs, then finishes the claims of the sent ones (and `unsent`, claims that need no job)
 * in one write; answers the ids sent. A job that could not be sent fails the call after the others are
 * finished: its claim stands, for the next pass after the lease.
 */
async function sendJobs(deps: PostsDeps, jobs: Job[], unsent: string[] = []): Promise<Set<string>> {
  const results = await Promise.allSettled(jobs.map((job) => deps.jobs.send(job)));
  const sent = jobs.filter((_, i) => results[i]!.status === 'fulfilled').map((j) => j.dispatchId);
  await deps.store.finishDispatches([...sent, ...unsent]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return new Set(sent);
}

/**
 * Due posts one scheduler pass takes at most. The local store reads every scheduled post to answer
 * (FerretDB pushes down neither sort nor limit), so a pass dispatches all it read rather than a few per
 * read; the bound keeps a pass's memory in check.
 */
const PASS_LIMIT = 5_000;
/** Posts dispatched per batch of writes (claims, the move to publishing, the sent marks): one command each. */
const DISPATCH_BATCH = 200;

/**
 * How far before the previous pass's time a pass reads: a post written with a due time a little behind the
 * database's clock (its writer's clock lagging) is still found by the next pass.
 */
const WINDOW_MARGIN_MS = 5_000;

/**
 * Which due posts each scheduler pass reads. Most passes read only those due since the previous complete
 * pass (less the margin): their cost follows what is due, not how many posts are scheduled. Every
 * `fullEveryMs`, the first pass, and a pass after one that reached its limit read every due post, so a post
 * due earlier than any window (left by a dispatcher that died, or a clock far behind the database's) waits at most
 * that long.
 */
/** How often a scheduler pass reads every due post (SCHEDULER_FULL_SCAN_INTERVAL_MS's default). */
export const FULL_SCAN_INTERVAL_MS = 30_000;

export class DueScan {
  private previous: Date | undefined;
  private lastFull = -Infinity;

  constructor(private readonly fullEveryMs: number) {}

  /** The earliest due time the pass at `now` reads; undefined: every due post. */
  since(now: Date): Date | undefined {
    if (!this.previous || now.getTime() - this.lastFull >= this.fullEveryMs) return undefined;
    return new Date(this.previous.getTime() - WINDOW_MARGIN_MS);
  }

  /** The pass at `now` read from `since` and dispatched what it read; `complete` unless it reached its limit. */
  passed(now: Date, since: Date | undefined, complete: boolean): void {
    if (since === undefined) this.lastFull = now.getTime();
    this.previous = complete ? now : undefined;
  }
}

/**
 * One pass of the scheduler: dispatches the posts due by the database's clock (so replicas with
 * skewed clocks agree) in batches, each batch's jobs sent as it is moved, and re-sends jobs of claims
 * whose holder died. Reads every due post, or with `scan` those its window holds.
 */
export async function dispatchDuePosts(deps: PostsDeps, limit = PASS_LIMIT, scan?: DueScan): Promise<number> {
  const now = await deps.store.databaseNow();
  const since = scan?.since(now);
  const due = await deps.store.duePosts(now, limit, since);
  let sent = 0;
  for (let i = 0; i < due.length; i += DISPATCH_BATCH) sent += (await dispatch(deps, due.slice(i, i + DISPATCH_BATCH))).filter(Boolean).length;
  scan?.passed(now, since, due.length < limit);
  // Claims whose holder died, for the post's due time as it stands: a publishing post's job is sent again; a
  // scheduled post is left to the due scan (which takes the claim over). Any other claim is finished: its post
  // ended, was deleted, or is due at another time (that time's own claim hands it over).
  const stale = await deps.store.unsentDispatches(new Date(now.getTime() - DISPATCH_LEASE_MS), limit);
  const posts = await Promise.all(stale.map((s) => deps.store.get(s.workspaceId, s.postId)));
  const resend: Job[] = [];
  const done: string[] = [];
  for (const [i, claim] of stale.entries()) {
    const post = posts[i] && dispatchId(posts[i]) === claim.id ? posts[i] : undefined;
    if (post?.status === 'publishing') resend.push({ dispatchId: claim.id, post, moved: false });
    else if (post?.status !== 'scheduled') done.push(claim.id);
  }
  sent += (await sendJobs(deps, resend, done)).size;
  return sent;
}

/**
 * POST /posts/{id}/publishes: publish now (the post goes to the publisher at once), or schedule it
 * into the next free slot of its first target account.
 */
export async function publishPost(deps: PostsDeps, workspaceId: number, postId: number, toNextSlot: boolean): Promise<Post> {
  const [current, settings] = await Promise.all([getPost(deps, workspaceId, postId), deps.accounts.workspaceSettings(workspaceId)]);
  if (current.status !== 'draft' && current.status !== 'scheduled') {
    throw new AppError('INVALID_STATE', `Post ${postId} is ${current.status}; only a draft or scheduled post can be published`);
  }
  assertApproved(current, settings, toNextSlot ? 'scheduled' : 'published');
  const first = current.postAccounts[0];
  if (!first) throw invalidParameters(['the post has no post_accounts to publish to']);
  const now = deps.clock.now();
  // The next free slot within the plan's max_schedule_days, as a time given on create or update must be.
  const horizonDays = Math.min(SLOT_HORIZON_DAYS, settings.maxScheduleDays ?? SLOT_HORIZON_DAYS);
  const at = toNextSlot ? (await nextFreeSlot(deps, workspaceId, first.socialAccountId, undefined, horizonDays)).at : now;
  if (!at) {
    const plan = horizonDays < SLOT_HORIZON_DAYS ? ` (the ${settings.tier ?? 'current'} plan schedules up to ${horizonDays} days ahead: max_schedule_days)` : ' (paused or full)';
    throw new AppError('INVALID_STATE', `Social account ${first.socialAccountId} has no free posting slot in the next ${horizonDays} days${plan}`);
  }
  const scheduled = await deps.store.replace(
    current,
    { ...current, status: 'scheduled', scheduledAt: at, updatedAt: now },
    {
      subject: 'posts.post.updated',
      msgId: `post-updated-${postId}-${now.getTime()}`,
      workspaceId,
      postId,
      status: 'scheduled',
      occurredAt: now,
      scheduledAt: at,
      previous: { status: current.status, scheduledAt: current.scheduledAt },
    },
  );
  if (!scheduled) throw new AppError('INVALID_STATE', `Post ${postId} changed while it was being published; read it again and retry`);
  deps.flushEvents();
  if (toNextSlot) return scheduled;
  await dispatch(deps, [scheduled]);
  return (await deps.store.get(workspaceId, postId)) ?? scheduled;
}

export interface TargetResult {
  postAccountId: number;
  platformStatus: 'posted' | 'failed' | 'dry_run';
  platformPostId?: string | undefined;
  permalink?: string | undefined;
  platformError?: string | undefined;
  disconnected: boolean;
  /** The target's first link as published (Dub short link and the URL it stands for). */
  dubShortUrl?: string | undefined;
  dubOriginalUrl?: string | undefined;
}

/**
 * Records the publisher's outcome per target and ends the post: posted (every target published),
 * failed (none) or partial; announces it on posts.post.terminal. Recording the same outcome again
 * changes nothing. A dry-run post's targets end `dry_run` (preflight passed; no platform post id or
 * permalink) or `failed`, and count as published for the post's status; a real post's never end
 * `dry_run`, and a dry run's never `posted`.
 */
export async function recordPublishResults(deps: PostsDeps, workspaceId: number, postId: number, results: TargetResult[]): Promise<Post> {
  // The post as this process served it to the publisher for this job is the likely base: the write is
  // guarded by its updated_at, so a stale copy (or one the results do not fit) only costs the read it saves.
  const recent = deps.store.lastRead(workspaceId, postId);
  if (recent?.status === 'publishing') {
    const saved = await endPublishing(deps, recent, results).catch(() => null);
    if (saved) return saved;
  }
  const current = await getPost(deps, workspaceId, postId);
  if (current.status !== 'publishing') return current;
  return (await endPublishing(deps, current, results)) ?? getPost(deps, workspaceId, postId);
}

/** Ends a publishing post with the results, unless it changed since `current` was read (null then). */
async function endPublishing(deps: PostsDeps, current: Post, results: TargetResult[]): Promise<Post | null> {
  const { workspaceId, id: postId } = current;
  const byId = new Map(results.map((r) => [r.postAccountId, r]));
  const missing = current.postAccounts.filter((a) => !byId.has(a.id)).map((a) => a.id);
  if (missing.length) throw invalidParameters([`results are missing post_accounts ${missing.join(', ')}`]);
  const wrong = results.filter((r) => r.platformStatus === (current.dryRun ? 'posted' : 'dry_run')).map((r) => r.postAccountId);
  if (wrong.length) throw invalidParameters([`results for post_accounts ${wrong.join(', ')} are ${current.dryRun ? 'posted, but the post is a dry run' : 'dry_run, but the post is not a dry run'}`]);
  const now = deps.clock.now();
  const postAccounts = current.postAccounts.map((a) => {
    const r = byId.get(a.id)!;
    const dry = r.platformStatus === 'dry_run';
    return {
      ...a,
      platformStatus: r.platformStatus,
      platformPostId: dry ? undefined : r.platformPostId,
      permalink: dry ? undefined : r.permalink,
      platformError: r.platformError,
      dubShortUrl: dry ? undefined : r.dubShortUrl,
      dubOriginalUrl: dry ? undefined : r.dubOriginalUrl,
    };
  });
  const posted = postAccounts.filter((a) => a.platformStatus === 'posted' || a.platformStatus === 'dry_run').length;
  const status = posted === postAccounts.length ? 'posted' : posted === 0 ? 'failed' : 'partial';
  const errors = postAccounts.filter((a) => a.platformError).map((a) => `${a.platform}: ${a.platformError}`);
  const next: Post = {
    ...current,
    status,
    postAccounts,
    postedAt: posted ? now : undefined,
    failedAt: status === 'posted' ? undefined : now,
    postError: errors.length ? errors.join('; ') : undefined,
    disconnected: results.some((r) => r.disconnected),
    updatedAt: now,
  };
  const saved = await deps.store.replace(current, next, {
    subject: 'posts.post.terminal',
    msgId: `post-terminal-${postId}-${now.getTime()}`,
    workspaceId,
    postId,
    status,
    occurredAt: now,
    dryRun: current.dryRun,
    recyclable: current.evergreen || current.recycledFromId !== undefined,
    platforms: postAccounts.map((a) => ({
      postAccountId: a.id,
      socialAccountId: a.socialAccountId,
      platform: a.platform,
      platformStatus: a.platformStatus,
      platformPostId: a.platformPostId ?? '',
      platformError: a.platformError,
      dubShortUrl: a.dubShortUrl ?? '',
    })),
  });
  if (saved) deps.flushEvents();
  return saved;
}
