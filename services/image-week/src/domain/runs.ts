import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, notFound } from '@spa/errors';
import { claimRunSlot, holdOneSlot, keepOneSlot } from './monthly-quota.js';
import { RUN_STATUSES, TERMINAL_ITEM_STATUSES, type ItemRecord, type RunRecord, type RunView } from './model.js';
import type { ImageWeekDeps } from './ports.js';
import { summarize } from './summarize.js';
import { validateRun, type RunInput } from './validate-run.js';

/** The job that plans a run: item id 0. */
export const planJob = (run: Pick<RunRecord, 'workspaceId' | 'id'>, attempt = 'first') => ({ workspaceId: run.workspaceId, runId: run.id, itemId: 0, dispatchId: `iw-plan-${run.id}-${attempt}` });
export const itemJob = (item: Pick<ItemRecord, 'workspaceId' | 'runId' | 'id' | 'round'>, attempt = 'first') => ({
  workspaceId: item.workspaceId,
  runId: item.runId,
  itemId: item.id,
  dispatchId: `iw-item-${item.id}-r${item.round}-${attempt}`,
});

type Deps = Pick<ImageWeekDeps, 'store' | 'accounts' | 'quota' | 'jobs' | 'clock' | 'settings' | 'postClaims'>;

/**
 * Creates a run and starts its work in the background: validates every field, takes a monthly run slot (not for a
 * dry run), stores the run and dispatches its planning job. A failure after the slot was taken gives it back.
 *
 * With an idempotency key the run id is bound to the key first (a unique insert): a create with a key already bound
 * answers that run, and one retried after a crash between binding and storing reuses the id, and with it the month
 * slot the id already holds. Concurrent creates of one key may each take a slot for that id; each then leaves the
 * id holding only its lowest one, so one key never makes two runs nor keeps two slots. One answered a slot another
 * create took checks after storing that the run still holds one (`holdOneSlot`).
 */
export async function createRun(deps: Deps, workspaceId: number, input: RunInput): Promise<RunView> {
  const settings = await validateRun(deps.accounts, workspaceId, input);
  const key = input.idempotencyKey;
  const id = key ? await deps.store.bindKey(workspaceId, key, () => deps.store.newRunId()) : await deps.store.newRunId();
  if (key && (await deps.store.run(workspaceId, id))) return getRun(deps, workspaceId, id);
  const now = deps.clock.now();
  const slot = settings.dryRun ? undefined : await claimRunSlot(deps, workspaceId, id, now);
  const run: RunRecord = { ...settings, id, workspaceId, templateVersion: deps.settings.templateVersion, createdAt: now, updatedAt: now };
  const stored = await deps.store.insertRun(run).then(
    () => true,
    async (err: unknown) => {
      // Another create of the same key stored the run (same id): this one answers it.
      if (key && (await deps.store.run(workspaceId, id))) return false;
      if (slot?.taken) {
        await deps.quota.release(workspaceId, slot.month, slot.slot, id);
        // A create of the key answered this very slot may have stored the run meanwhile: the run takes one back.
        if (key && (await deps.store.run(workspaceId, id))) await holdOneSlot(deps, workspaceId, id, now);
      }
      throw err;
    },
  );
  if (key && slot?.taken) await keepOneSlot(deps, workspaceId, slot.month, id);
  // Answered a slot another create of the key took, which that create gives back if its own insert fails.
  else if (key && slot && stored) await holdOneSlot(deps, workspaceId, id, now);
  if (!stored) return getRun(deps, workspaceId, id);
  // A run whose job could not be sent is planned by the sweeper; the run exists either way.
  await deps.jobs.dispatch(planJob(run)).catch(() => undefined);
  return summarize(run, [], now, true);
}

export async function getRun(deps: Pick<Deps, 'store' | 'clock'>, workspaceId: number, runId: number): Promise<RunView> {
  const run = await deps.store.run(workspaceId, runId);
  if (!run) throw notFound(`Quote Week run ${runId}`);
  return summarize(run, await deps.store.items([run.id]), deps.clock.now(), true);
}

/** Newest first; the status filter applies to the status computed now (a workspace has a few runs a month). */
export async function listRuns(
  deps: Pick<Deps, 'store' | 'clock'>,
  workspaceId: number,
  query: { limit: number; offset: number; status?: string | undefined },
): Promise<{ runs: RunView[]; totalCount: number }> {
  if (query.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(query.status)) {
    throw new AppError('INVALID_PARAMETERS', `status must be one of ${RUN_STATUSES.join(', ')}`, { details: [`status must be one of ${RUN_STATUSES.join(', ')}`] });
  }
  const runs = await deps.store.runs(workspaceId);
  const items = await deps.store.items(runs.map((r) => r.id));
  const now = deps.clock.now();
  const views = runs
    .map((r) =>
      summarize(
        r,
        items.filter((i) => i.runId === r.id),
        now,
      ),
    )
    .filter((v) => !query.status || v.status === query.status);
  return { runs: views.slice(query.offset, query.offset + query.limit), totalCount: views.length };
}

/** How long a cancel waits for the posts that workers holding an item's post claim are making. */
const CANCEL_SETTLE_MS = 3_000;
const SETTLE_POLL_MS = 50;

/**
 * Cancels a run not yet finished: every item not yet posted is blocked from posting (its post claim is taken by the
 * cancel), and workers stop at their next step. An item whose worker took the claim first is being posted: the
 * cancel answers once that worker has finished it (at most CANCEL_SETTLE_MS; one that died holding the claim never
 * posts), so the answer shows every post the run will have. A finished run is answered unchanged.
 */
export async function cancelRun(deps: Deps, workspaceId: number, runId: number): Promise<RunView> {
  const view = await getRun(deps, workspaceId, runId);
  if (view.status !== 'pending') return view;
  const now = deps.clock.now();
  await deps.store.updateRun(runId, { canceledAt: now });
  const open = (await deps.store.items([runId])).filter((i) => !TERMINAL_ITEM_STATUSES.includes(i.status));
  const blocked = await Promise.all(open.map((i) => deps.postClaims.cancel(i.id)));
  await untilFinished(deps, runId, new Set(open.filter((_, k) => !blocked[k]).map((i) => i.id)));
  return getRun(deps, workspaceId, runId);
}

/** Waits (bounded by CANCEL_SETTLE_MS of wall time) until every one of the run's `itemIds` is finished. */
async function untilFinished(deps: Deps, runId: number, itemIds: Set<number>): Promise<void> {
  const deadline = performance.now() + CANCEL_SETTLE_MS;
  while (itemIds.size && performance.now() < deadline) {
    const items = await deps.store.items([runId]);
    if (items.every((i) => !itemIds.has(i.id) || TERMINAL_ITEM_STATUSES.includes(i.status))) return;
    await sleep(SETTLE_POLL_MS);
  }
}

/**
 * Runs a failed item again: attempt count reset, and quote, render, verify, post build and slot fill redone for
 * that item only. Only a failed item (of a run not canceled) can be regenerated: otherwise 422 INVALID_STATE.
 */
export async function regenerateItem(deps: Deps, workspaceId: number, runId: number, itemId: number): Promise<{ run: RunView; item: ItemRecord }> {
  const run = await deps.store.run(workspaceId, runId);
  if (!run) throw notFound(`Quote Week run ${runId}`);
  const item = await deps.store.item(runId, itemId);
  if (!item) throw notFound(`Item ${itemId} of Quote Week run ${runId}`);
  if (run.canceledAt) throw new AppError('INVALID_STATE', `Quote Week run ${runId} is canceled; its items cannot be regenerated`);
  if (item.status !== 'failed') throw new AppError('INVALID_STATE', `Only a failed item can be regenerated; item ${itemId} is ${item.status}`);
  const round = item.round + 1;
  await deps.store.updateItem(itemId, {
    status: 'pending',
    attemptCount: 0,
    round,
    quote: undefined,
    replacedQuotes: item.quote ? [...(item.replacedQuotes ?? []), item.quote] : item.replacedQuotes,
    template: undefined,
    image: undefined,
    scheduledAt: undefined,
    lastError: undefined,
    finishedAt: undefined,
    updatedAt: deps.clock.now(),
  });
  await deps.jobs.dispatch(itemJob({ ...item, round })).catch(() => undefined);
  const view = await getRun(deps, workspaceId, runId);
  return { run: view, item: view.items!.find((i) => i.id === itemId)! };
}
