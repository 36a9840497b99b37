import { AppError } from '@spa/errors';
import { compareReadBack } from '../verify/compare.js';
import { TERMINAL_ITEM_STATUSES, type ItemRecord, type RunRecord } from './model.js';
import type { ImageWeekDeps } from './ports.js';
import { keepLease } from './keep-lease.js';
import { freeSlots } from './plan-slots.js';
import { announceIfFinished } from './run-events.js';
import { writeQuotes } from './write-quotes.js';

export type Outcome = 'done' | 'later';

class Canceled extends Error {}

const renderKey = (workspaceId: number, n: number) => `render:${workspaceId}:${n}`;

/** Takes (or keeps) one of the workspace's render slots for the run: at most N runs of a workspace render at once. */
async function holdRenderSlot(deps: ImageWeekDeps, run: RunRecord): Promise<boolean> {
  const owner = `run:${run.id}`;
  const keys = Array.from({ length: deps.settings.rendersPerWorkspace }, (_, n) => renderKey(run.workspaceId, n));
  // A run keeps (renews) the slot it has rather than taking a second one.
  for (const key of keys) if (await deps.leases.holds(key, owner)) return deps.leases.acquire(key, owner, deps.settings.leaseMs);
  for (const key of keys) if (await deps.leases.acquire(key, owner, deps.settings.leaseMs)) return true;
  return false;
}

async function releaseRenderSlotIfDone(deps: ImageWeekDeps, run: RunRecord): Promise<void> {
  const items = await deps.store.items([run.id]);
  if (!run.canceledAt && items.some((i) => !TERMINAL_ITEM_STATUSES.includes(i.status))) return;
  for (let n = 0; n < deps.settings.rendersPerWorkspace; n++) await deps.leases.release(renderKey(run.workspaceId, n), `run:${run.id}`);
}

/**
 * One item's work (its job): quote (when regenerated), slot, render, read back and compare, at most maxAttempts
 * renders, then store the card through media and build its post. Only the holder of the item's lease works on it
 * and writes it (`owner` names one job's work, not a process: two deliveries of the same item never both hold it); the
 * lease is renewed while the work runs, and a worker that dies loses it after leaseMs, the redelivered job continuing
 * from what the item records. 'later' asks for the job again later (lease or render slot held elsewhere).
 */
export async function processItem(deps: ImageWeekDeps, job: { workspaceId: number; runId: number; itemId: number }, owner: string): Promise<Outcome> {
  const run = await deps.store.run(job.workspaceId, job.runId);
  if (!run) return 'done';
  // The lease first, then the item read once: what the holder reads is what no one else writes meanwhile.
  const leaseKey = `item:${job.itemId}`;
  if (!(await deps.leases.acquire(leaseKey, owner, deps.settings.leaseMs))) return 'later';
  const stopRenewing = keepLease(deps.leases, leaseKey, owner, deps.settings.leaseMs);
  try {
    const item = await deps.store.item(job.runId, job.itemId);
    if (!item || TERMINAL_ITEM_STATUSES.includes(item.status)) {
      // Its worker may have died between the item's end and announcing the run's.
      if (item) await announceIfFinished(deps, run.workspaceId, run.id);
      return 'done';
    }
    if (!run.canceledAt && !(await holdRenderSlot(deps, run))) return 'later';
    await work(deps, run, item, () => deps.leases.acquire(leaseKey, owner, deps.settings.leaseMs));
    await releaseRenderSlotIfDone(deps, { ...run, ...(await deps.store.run(run.workspaceId, run.id)) });
    await announceIfFinished(deps, run.workspaceId, run.id);
    return 'done';
  } finally {
    stopRenewing();
    await deps.leases.release(leaseKey, owner);
  }
}

async function work(deps: ImageWeekDeps, run: RunRecord, start: ItemRecord, renew: () => Promise<boolean>): Promise<void> {
  let item = start;
  const save = async (patch: Partial<ItemRecord>) => {
    item = { ...item, ...patch, updatedAt: deps.clock.now() };
    await deps.store.updateItem(item.id, { ...patch, updatedAt: item.updatedAt });
  };
  /**
   * Between steps: still ours, and the run not canceled. Asked again only after a long step (quote, render, read):
   * at the start the lease was just taken and the run just read.
   */
  let checked = !run.canceledAt;
  const checkpoint = async () => {
    if (checked) return;
    if (!(await renew())) throw new Error('the item lease was lost to another worker');
    const current = await deps.store.run(run.workspaceId, run.id);
    if (!current || current.canceledAt) throw new Canceled();
    checked = true;
  };
  const fail = (message: string) => save({ status: 'failed', lastError: message, finishedAt: deps.clock.now() });
  try {
    await checkpoint();
    if (item.postId !== undefined) return void (await save({ status: 'completed', finishedAt: item.finishedAt ?? deps.clock.now() }));
    if (!item.quote) {
      // A regenerated item: a new quote unlike the run's others and its own earlier ones, and a free slot again.
      const others = (await deps.store.items([run.id])).filter((i) => i.id !== item.id);
      const journal = { ledger: deps.quoteLedger, scope: `item:${item.id}:r${item.round}` };
      checked = false;
      const avoid = [...others.map((i) => i.quote ?? '').filter(Boolean), ...(item.replacedQuotes ?? [])];
      const { quotes } = await writeQuotes(deps.quotes, run.workspaceId, run.topic, 1, journal, avoid);
      if (!quotes[0]) return void (await fail('No new quote could be written (daily AI generation quota used up, or only repeated quotes)'));
      const target = run.targets.find((t) => t.socialAccountId === item.socialAccountId)!;
      const held = others.filter((i) => i.socialAccountId === item.socialAccountId && i.scheduledAt).map((i) => i.scheduledAt!);
      const [slot] = await freeSlots(deps, run.workspaceId, target, run.cutoffDays, deps.clock.now(), 1, held);
      await save({ quote: quotes[0], scheduledAt: slot });
    }
    const target = run.targets.find((t) => t.socialAccountId === item.socialAccountId && t.platform === item.platform)!;
    const markText = run.watermarkText ?? target.watermark;
    const watermark = run.watermarkEnabled && markText && (item.accountPosition + 1) % run.watermarkEveryN === 0 ? markText : undefined;
    let accepted: { png: Buffer; width: number; height: number; template: string; watermarked: boolean } | undefined;
    let lastError = '';
    while (!accepted && item.attemptCount < deps.settings.maxAttempts) {
      await checkpoint();
      const attempt = item.attemptCount + 1;
      await save({ status: 'generating', attemptCount: attempt, retryCount: item.retryCount + (attempt > 1 ? 1 : 0) });
      const startedMs = deps.clock.now().getTime();
      checked = false;
      const card = await deps.renderer.render({ quote: item.quote!, platform: item.platform, aspect: target.aspect, attempt, watermark, templateOffset: item.position });
      await save({ status: 'verifying', imagesGenerated: item.imagesGenerated + 1, template: card.template });
      const read = await deps.reader.read(card.png, card.textRegion);
      const comparison = compareReadBack(item.quote!, read.text, { watermark });
      deps.observer?.cardChecked(deps.clock.now().getTime() - startedMs, !comparison.ok);
      // The read's cost and, when it did not match, the garble: one write.
      await save({ estCostCents: item.estCostCents + read.costCents, ...(comparison.ok ? {} : { garbleCount: item.garbleCount + 1 }) });
      if (comparison.ok) accepted = card;
      else lastError = `The card did not read back as its quote after ${attempt} attempt(s) (similarity ${comparison.similarity.toFixed(2)}; read by ${read.reader})`;
    }
    if (!accepted) return void (await fail(lastError || 'No attempt left'));
    await checkpoint();
    const stored = item.image ?? { ...(await deps.media.storePng(run.workspaceId, accepted.png)), width: accepted.width, height: accepted.height };
    await save({ image: stored, watermarked: accepted.watermarked });
    if (run.dryRun) return void (await save({ status: 'completed', finishedAt: deps.clock.now() }));
    const postId = await buildPost(deps, run, target, item);
    if (postId === undefined) throw new Canceled();
    await save({ postId, status: 'completed', lastError: undefined, finishedAt: deps.clock.now() });
  } catch (err) {
    if (err instanceof Canceled) return void (await save({ status: 'canceled', finishedAt: deps.clock.now() }));
    // A refusal (bad post, account gone): the item fails with the reason; anything else is retried by the job.
    if (err instanceof AppError && err.httpStatus < 500) return void (await fail(err.message));
    throw err;
  }
}

/** The item's one post: the post claim makes sure a cancel and a crashed worker's successor never make a second. */
async function buildPost(deps: ImageWeekDeps, run: RunRecord, target: RunRecord['targets'][number], item: ItemRecord): Promise<number | undefined> {
  const claim = await deps.postClaims.claim(item.id);
  if (claim.state === 'canceled') return undefined;
  if (claim.postId !== undefined) return claim.postId;
  const existing = await deps.posts.findItemPost(run.workspaceId, item.id);
  if (existing !== undefined) {
    await deps.postClaims.recordPost(item.id, existing);
    return existing;
  }
  const scheduledAt = run.scheduleMode === 'scheduled' && item.scheduledAt && item.scheduledAt.getTime() > deps.clock.now().getTime() ? item.scheduledAt : undefined;
  const postId = await deps.posts.createPost({
    workspaceId: run.workspaceId,
    itemId: item.id,
    runId: run.id,
    platform: item.platform,
    socialAccountId: item.socialAccountId,
    caption: item.quote!,
    r2Key: item.image!.r2Key,
    scheduledAt,
    boardId: target.boardId,
    link: target.link,
  });
  await deps.postClaims.recordPost(item.id, postId);
  return postId;
}
