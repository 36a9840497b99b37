import { AppError } from '@spa/errors';
import type { PublisherDeps, TargetOutcome } from './ports.js';
import { publishTarget } from './publish-target.js';
import { shortenParts } from './short-links.js';

export interface PublishJob {
  workspaceId: number;
  postId: number;
  dispatchId: string;
}

/**
 * Publishes every target of a post that is publishing, then records the outcomes with the posts
 * service (which ends the post and announces it). Answers false when the job must be retried
 * later (another publisher holds a target, or a platform could not be asked); true when done.
 */
export async function publishJob(deps: PublisherDeps, job: PublishJob): Promise<boolean> {
  const post = await deps.posts.getPost(job.workspaceId, job.postId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null; // Deleted meanwhile: nothing to do.
    throw err;
  });
  if (!post || post.status !== 'publishing') return true;
  const accounts = await deps.accounts.targets(
    job.workspaceId,
    post.targets.map((t) => t.socialAccountId),
  );
  const outcomes = await Promise.all(
    post.targets.map(async (target): Promise<TargetOutcome | null> => {
      const account = accounts.find((a) => a.socialAccountId === target.socialAccountId);
      if (!account) return { postAccountId: target.postAccountId, platformStatus: 'failed', platformError: 'the social account no longer exists', disconnected: false };
      // A dry run makes no short link; a shortening that fails now leaves the target to a later try (never published unshortened, then shortened).
      const short = post.dryRun ? { parts: post.partsFor(target.platform) } : await shortenParts(deps.links, job.workspaceId, target.postAccountId, post.partsFor(target.platform)).catch(() => null);
      if (!short) return null;
      const outcome = await publishTarget(deps, target.postAccountId, { target: account, parts: short.parts }, post.dryRun ? 'dry_run' : 'publish');
      return outcome?.platformStatus === 'posted' && short.first ? { ...outcome, dubShortUrl: short.first.shortUrl, dubOriginalUrl: short.first.originalUrl } : outcome;
    }),
  );
  if (outcomes.some((o) => o === null)) return false;
  const done = outcomes as TargetOutcome[];
  for (const o of done.filter((o) => o.disconnected)) {
    const target = post.targets.find((t) => t.postAccountId === o.postAccountId)!;
    await deps.accounts.markDisconnected(job.workspaceId, target.socialAccountId);
  }
  await deps.posts.recordResults(job.workspaceId, job.postId, done);
  const now = deps.clock.now().getTime();
  for (const o of done) {
    const target = post.targets.find((t) => t.postAccountId === o.postAccountId);
    if (!target) continue;
    const errorClass = o.platformStatus !== 'failed' ? 'none' : o.disconnected ? 'disconnected' : 'refused';
    deps.observer?.targetFinished({ platform: target.platform, platformStatus: o.platformStatus, errorClass, lagMs: post.scheduledAt ? now - post.scheduledAt.getTime() : undefined });
  }
  return true;
}
