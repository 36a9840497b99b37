import { TERMINAL_ITEM_STATUSES, type ItemRecord, type RunRecord, type RunStatus, type RunView } from './model.js';

/** An item as it is answered: once its run is canceled, an item not finished is canceled (its worker stops at its next step). */
export function presentItem(run: RunRecord, item: ItemRecord): ItemRecord {
  if (run.canceledAt && !TERMINAL_ITEM_STATUSES.includes(item.status)) return { ...item, status: 'canceled', finishedAt: item.finishedAt ?? run.canceledAt };
  return item;
}

/**
 * The run with its counters and status computed from its items at this moment (never stored counters, which
 * concurrent workers could not update exactly on a store without atomic updates):
 * canceled once canceled; failed when planning failed or no item could be planned or every item failed;
 * completed when every item is finished and at least one completed; pending otherwise.
 */
export function summarize(run: RunRecord, rawItems: ItemRecord[], now: Date, withItems = false): RunView {
  const items = rawItems.map((i) => presentItem(run, i)).sort((a, b) => a.position - b.position);
  const count = (s: string) => items.filter((i) => i.status === s).length;
  const sum = (f: (i: ItemRecord) => number) => items.reduce((n, i) => n + f(i), 0);
  const completed = count('completed');
  const failed = count('failed');
  const finished = items.every((i) => TERMINAL_ITEM_STATUSES.includes(i.status));
  let status: RunStatus = 'pending';
  let finishedAt: Date | undefined;
  const lastFinish = () => items.reduce<Date | undefined>((max, i) => (i.finishedAt && (!max || i.finishedAt > max) ? i.finishedAt : max), run.plannedAt);
  if (run.canceledAt) {
    status = 'canceled';
    finishedAt = run.canceledAt;
  } else if (run.errorMessage && !run.plannedAt) {
    status = 'failed';
    finishedAt = run.updatedAt;
  } else if (run.plannedAt && finished) {
    status = completed > 0 ? 'completed' : 'failed';
    finishedAt = lastFinish();
  }
  const end = finishedAt ?? now;
  return {
    ...run,
    status,
    errorMessage: run.errorMessage ?? (status === 'failed' && items.length > 0 ? `Every item failed; the last error: ${items.find((i) => i.lastError)?.lastError ?? 'unknown'}` : run.errorMessage),
    totalItems: items.length,
    completedItems: completed,
    failedItems: failed,
    canceledItems: count('canceled'),
    imagesGenerated: sum((i) => i.imagesGenerated),
    retryCount: sum((i) => i.retryCount),
    garbleCount: sum((i) => i.garbleCount),
    estCostCents: sum((i) => i.estCostCents),
    durationMs: Math.max(0, end.getTime() - run.createdAt.getTime()),
    finishedAt,
    items: withItems ? items : undefined,
  };
}
