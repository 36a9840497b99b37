import { AppError } from '@spa/errors';
import type { PublishRequest, TargetAccount } from '../connectors/types.js';
import type { PostToPublish, PublisherDeps, TargetOutcome } from './ports.js';
import { publishTargets } from './publish-target.js';
import { shortenParts } from './short-links.js';

export interface PublishJob {
  workspaceId: number;
  postId: number;
  dispatchId: string;
  /**
   * The post as the dispatcher moved it to publishing (it can be neither edited nor deleted while it publishes);
   * absent in a job sent before jobs carried it, whose post is then read from the posts service.
   */
  post?: PostToPublish | undefined;
}

interface PreparedTarget {
  postAccountId: number;
  /** Known without publishing (the account is gone). */
  outcome?: TargetOutcome;
  /** What to publish; absent when the target must wait for a later try (its links could not be shortened now). */
  request?: PublishRequest | undefined;
  /** The target's first link as shortened. */
  first?: { shortUrl: string; originalUrl: string } | undefined;
}

async function prepare(deps: PublisherDeps, workspaceId: number, post: PostToPublish, target: PostToPublish['targets'][number], accounts: TargetAccount[]): Promise<PreparedTarget> {
  const { postAccountId } = target;
  const account = accounts.find((a) => a.socialAccountId === target.socialAccountId);
  if (!account) return { postAccountId, outcome: { postAccountId, platformStatus: 'failed', platformError: 'the social account no longer exists', disconnected: false } };
  const parts = post.partsFor(target.platform);
  const short = post.dryRun ? { parts } : await shortenParts(deps.links, workspaceId, postAccountId, parts).catch(() => null);
  return { postAccountId, request: short ? { target: account, parts: short.parts } : undefined, first: short?.first };
}

/** Null for a post that is not there (deleted once it ended); every other error is thrown. */
const unlessGone = (err: unknown): null => {
  if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
  throw err;
};

/**
 * Publishes every target of a post that is publishing (together: `publishTargets`), then records the
 * outcomes with the posts service (which ends the post and announces it). Answers false when the job must be retried
 * later (another publisher holds a target, or a platform could not be asked); true when done.
 * The post is the one the job carries (as it began publishing), or else read from the posts service: a post
 * that is gone or no longer publishing needs nothing. Whatever the post, a target is never published twice
 * (its attempts are claimed once and kept), and the posts service leaves an ended post as it is.
 */
export async function publishJob(deps: PublisherDeps, job: PublishJob): Promise<boolean> {
  const post = job.post ?? (await deps.posts.getPost(job.workspaceId, job.postId).catch(unlessGone));
  if (!post || post.status !== 'publishing') return true;
  const accounts = await deps.accounts.targets(
    job.workspaceId,
    post.targets.map((t) => t.socialAccountId),
  );
  // Short links first (a dry run makes none; a shortening that fails now leaves the target to a later
  // try, never published unshortened, then shortened), then every target ready to go, together.
  const prepared = await Promise.all(post.targets.map((target) => prepare(deps, job.workspaceId, post, target, accounts)));
  const ready = prepared.filter((p) => p.request);
  const published = await publishTargets(
    deps,
    ready.map((p) => ({ postAccountId: p.postAccountId, request: p.request! })),
    post.dryRun ? 'dry_run' : 'publish',
  );
  const outcomes = prepared.map((p): TargetOutcome | null => {
    if (p.outcome) return p.outcome;
    const outcome = p.request ? published[ready.indexOf(p)]! : null;
    return outcome?.platformStatus === 'posted' && p.first ? { ...outcome, dubShortUrl: p.first.shortUrl, dubOriginalUrl: p.first.originalUrl } : outcome;
  });
  if (outcomes.some((o) => o === null)) return false;
  const done = outcomes as TargetOutcome[];
  for (const o of done.filter((o) => o.disconnected)) {
    const target = post.targets.find((t) => t.postAccountId === o.postAccountId)!;
    await deps.accounts.markDisconnected(job.workspaceId, target.socialAccountId);
  }
  await deps.posts.recordResults(job.workspaceId, job.postId, done).catch(unlessGone);
  // Each failed target's class on its account (its health's last publish error); best effort.
  for (const o of done.filter((o) => o.platformStatus === 'failed' && o.errorClass)) {
    const target = post.targets.find((t) => t.postAccountId === o.postAccountId)!;
    await deps.accounts.recordPublishError?.(job.workspaceId, target.socialAccountId, o.errorClass!).catch(() => undefined);
  }
  const now = deps.clock.now().getTime();
  for (const o of done) {
    const target = post.targets.find((t) => t.postAccountId === o.postAccountId);
    if (!target) continue;
    const errorClass = o.platformStatus !== 'failed' ? 'none' : o.disconnected ? 'disconnected' : 'refused';
    deps.observer?.targetFinished({ platform: target.platform, platformStatus: o.platformStatus, errorClass, lagMs: post.scheduledAt ? now - post.scheduledAt.getTime() : undefined });
  }
  return true;
}
