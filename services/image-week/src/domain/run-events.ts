import type { RunView } from './model.js';
import type { ImageWeekDeps } from './ports.js';
import { summarize } from './summarize.js';

/** Where a run's end is announced (`image_week_run.completed` / `.failed`, through the outbox). */
export interface RunEvents {
  /**
   * Announces that the run ended; `key` names this end (a run whose failed items are regenerated ends again, under
   * another key), so announcing the same end again (a job handled twice, a worker that died before) adds nothing.
   */
  finished(run: { workspaceId: number; kind: 'image_week_run.completed' | 'image_week_run.failed'; at: Date; data: Record<string, unknown> }, key: string): Promise<void>;
}

/** The public `data` of a run's end (OpenAPI document, webhooks section). */
export function runEndData(view: RunView): Record<string, unknown> {
  return {
    image_week_run_id: view.id,
    status: view.status,
    topic: view.topic,
    dry_run: view.dryRun,
    total_items: view.totalItems,
    completed_items: view.completedItems,
    failed_items: view.failedItems,
    canceled_items: view.canceledItems,
    post_ids: (view.items ?? []).filter((i) => i.postId !== undefined).map((i) => i.postId!),
    error_message: view.status === 'failed' ? (view.errorMessage ?? null) : null,
    finished_at: view.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Announces the run's end once every item is finished (completed: at least one card made; failed: none, or planning
 * failed). Called by whoever may have finished it: the worker of each item once its item ends (and again when a job
 * of a finished item comes back, so a worker that died between its item's end and this announces it after all), and
 * planning when it planned nothing.
 */
export async function announceIfFinished(deps: Pick<ImageWeekDeps, 'store' | 'clock' | 'events'>, workspaceId: number, runId: number): Promise<void> {
  if (!deps.events) return;
  const run = await deps.store.run(workspaceId, runId);
  if (!run) return;
  const items = await deps.store.items([runId]);
  const view = summarize(run, items, deps.clock.now(), true);
  if (view.status !== 'completed' && view.status !== 'failed') return;
  const kind = view.status === 'completed' ? 'image_week_run.completed' : 'image_week_run.failed';
  const key = `${run.id}:${items.reduce((n, i) => n + i.round, 0)}`;
  await deps.events.finished({ workspaceId, kind, at: view.finishedAt ?? deps.clock.now(), data: runEndData(view) }, key);
}
