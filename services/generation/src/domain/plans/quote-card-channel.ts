import type { Channel, PlanRun } from './model.js';
import type { PlansDeps } from './ports.js';
import { decidesItem, topicOf } from './run-common.js';
import { pinterestLink } from './validate-plan.js';

/** The key that makes a plan run's Quote Week run for channel `ci` exactly one, however often the plan run resumes. */
export const quoteWeekKey = (run: Pick<PlanRun, 'id'>, ci: number): string => `content-plan-run:${run.id}:${ci}`;

/**
 * Starts the Quote Week run of a quote_card channel (Instagram or Pinterest) for this plan run, recorded as the
 * channel's item 0: the run id, or why it could not start (quota_exceeded: the monthly Quote Week quota is used up),
 * which fails that channel only. The create carries a key derived from the plan run and channel, so an attempt that
 * resumes after a crash between the create and the record gets the same Quote Week run back instead of a second one.
 */
export async function startQuoteWeek(deps: PlansDeps, run: PlanRun, ci: number, channel: Channel): Promise<void> {
  const [done] = await deps.store.runItems(run.id, ci);
  if (done && (done.imageWeekRunId !== undefined || done.error !== undefined)) return;
  const s = run.snapshot;
  const item = { runId: run.id, channelIndex: ci, n: 0, createdAt: deps.clock.now() };
  try {
    const imageWeekRunId = await deps.quoteWeek.startRun({
      workspaceId: run.workspaceId,
      idempotencyKey: quoteWeekKey(run, ci),
      contentPlanId: run.planId,
      topic: topicOf(s, channel),
      platform: channel.platform as 'instagram' | 'pinterest',
      socialAccountId: channel.socialAccountId,
      ...(channel.platform === 'pinterest' ? { boardId: channel.boardId, link: pinterestLink(s.platformConfigs) } : {}),
      scheduleMode: s.scheduleMode,
      watermarkEnabled: channel.watermarkEnabled,
      watermarkText: channel.watermarkText,
      watermarkEveryN: channel.watermarkEveryN,
      dryRun: s.dryRun ?? false,
    });
    await deps.store.insertItem({ ...item, imageWeekRunId });
  } catch (err) {
    if (!decidesItem(err)) throw err;
    await deps.store.insertItem({ ...item, error: `Quote Week run not started: ${err.message}` });
  }
}
