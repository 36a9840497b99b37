import type { ItemRecord, RunRecord, Target } from './model.js';
import type { ImageWeekDeps } from './ports.js';
import { keepLease } from './keep-lease.js';
import { freeSlots } from './plan-slots.js';
import { announceIfFinished } from './run-events.js';
import { itemJob } from './runs.js';
import { writeQuotes } from './write-quotes.js';

interface PlannedSlot {
  target: Target;
  at: Date;
}

/**
 * Plans a run (its planning job): one item per free slot of each configured account within cutoff_days, as many as
 * the daily generation quota allows (shortfall `quota`; `no_slots` when there is no free slot), each with its own
 * quote. The holder of the run's planning lease does it once; the items are then dispatched as jobs.
 * Returns false when another worker holds the planning lease (the job is retried later).
 */
export async function planRun(deps: ImageWeekDeps, workspaceId: number, runId: number, owner: string): Promise<boolean> {
  const run = await deps.store.run(workspaceId, runId);
  if (!run || run.canceledAt) return true;
  if (run.plannedAt) {
    await dispatchPending(deps, run);
    await announceIfFinished(deps, workspaceId, runId);
    return true;
  }
  const key = `plan:${runId}`;
  if (!(await deps.leases.acquire(key, owner, deps.settings.leaseMs))) return false;
  const stopRenewing = keepLease(deps.leases, key, owner, deps.settings.leaseMs);
  try {
    const now = deps.clock.now();
    const slots: PlannedSlot[] = [];
    for (const target of run.targets) {
      for (const at of await freeSlots(deps, workspaceId, target, run.cutoffDays, now)) slots.push({ target, at });
    }
    slots.sort((a, b) => a.at.getTime() - b.at.getTime() || a.target.platform.localeCompare(b.target.platform));
    let shortfall: RunRecord['shortfallReason'];
    if (slots.length === 0) shortfall = 'no_slots';
    // The quote count is fixed once per run (the quota left when it was first planned), so a successor after a
    // crash, which finds less quota left because this run already used it, plans the same number again.
    const journal = { ledger: deps.quoteLedger, scope: `plan:${runId}` };
    const wanted = slots.length > 0 ? await deps.quoteLedger.budget(journal.scope, async () => Math.min(slots.length, await deps.quotes.remaining(workspaceId))) : 0;
    if (slots.length > 0 && wanted < slots.length) shortfall = 'quota';
    const { quotes, quotaHit } = wanted > 0 ? await writeQuotes(deps.quotes, workspaceId, run.topic, wanted, journal) : { quotes: [], quotaHit: false };
    if (quotaHit && quotes.length < slots.length) shortfall = 'quota';
    const planned = slots.slice(0, quotes.length);
    const ids = planned.length ? await deps.store.newItemIds(planned.length) : [];
    const perAccount = new Map<number, number>();
    const items: ItemRecord[] = planned.map((slot, position) => {
      const accountPosition = perAccount.get(slot.target.socialAccountId) ?? 0;
      perAccount.set(slot.target.socialAccountId, accountPosition + 1);
      return {
        id: ids[position]!,
        runId,
        workspaceId,
        position,
        accountPosition,
        platform: slot.target.platform,
        socialAccountId: slot.target.socialAccountId,
        status: 'pending',
        attemptCount: 0,
        round: 0,
        quote: quotes[position],
        scheduledAt: slot.at,
        watermarked: false,
        imagesGenerated: 0,
        retryCount: 0,
        garbleCount: 0,
        estCostCents: 0,
        updatedAt: now,
      };
    });
    await deps.store.insertItems(items);
    const errorMessage =
      items.length > 0
        ? undefined
        : shortfall === 'no_slots'
          ? `No free posting slot within ${run.cutoffDays} days for the configured accounts (paused schedule, no enabled slot, or every slot held)`
          : 'The daily AI generation quota is used up; no quote could be written';
    await deps.store.updateRun(runId, { plannedAt: deps.clock.now(), shortfallReason: shortfall, ...(errorMessage ? { errorMessage } : {}) });
    await dispatchPending(deps, { ...run, plannedAt: now });
    // A run that planned nothing has ended (failed).
    if (!items.length) await announceIfFinished(deps, workspaceId, runId);
    return true;
  } finally {
    stopRenewing();
    await deps.leases.release(key, owner);
  }
}

/** Sends a job for each item of the run not finished yet (duplicates are dropped by their dispatch id). */
async function dispatchPending(deps: ImageWeekDeps, run: RunRecord): Promise<void> {
  const items = await deps.store.items([run.id]);
  await Promise.all(items.filter((i) => i.status !== 'completed' && i.status !== 'failed' && i.status !== 'canceled').map((i) => deps.jobs.dispatch(itemJob(i))));
}
