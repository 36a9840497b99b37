import type { AnalyticsDeps } from './ports.js';
import { resolveQuery, type AnalyticsQuery } from './query.js';

export interface BestTimeCell {
  dayOfWeek: number;
  hour: number;
  samples: number;
  /** Null when the cell has fewer than `minSamples` posts: not enough to say. */
  meanEngagementRate: number | null;
}

export interface BestTimes {
  timezone: string;
  minSamples: number;
  totalSamples: number;
  /** Every weekday and hour (7 × 24), Sunday 0 first. */
  cells: BestTimeCell[];
}

/**
 * GET /analytics/best_times: the mean engagement rate (latest snapshot) of the posts published in each
 * weekday and hour of the workspace's zone, for the selected accounts, over every tracked post.
 */
export async function bestTimes(deps: AnalyticsDeps, q: AnalyticsQuery, minSamples: number): Promise<BestTimes> {
  const r = await resolveQuery(deps, { ...q, startDate: undefined, endDate: undefined });
  const buckets = (await deps.store.bestTimeBuckets(q.workspaceId)).filter((b) => r.accounts.has(b.socialAccountId));
  const cells: BestTimeCell[] = [];
  let totalSamples = 0;
  for (let dayOfWeek = 0; dayOfWeek < 7; dayOfWeek += 1) {
    for (let hour = 0; hour < 24; hour += 1) {
      let sum = 0;
      let samples = 0;
      for (const b of buckets) {
        const c = b.cells[`${dayOfWeek}-${hour}`];
        if (c) {
          sum += c.sum;
          samples += c.samples;
        }
      }
      totalSamples += samples;
      cells.push({ dayOfWeek, hour, samples, meanEngagementRate: samples >= minSamples && samples > 0 ? sum / samples : null });
    }
  }
  return { timezone: r.zone, minSamples, totalSamples, cells };
}
