import { monthsOf, weekdayOf, type DayRange } from './dates.js';
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
  /** The posting days counted (inclusive); undefined when no date was asked: every tracked post. */
  range?: DayRange | undefined;
  /** Every weekday and hour (7 × 24), Sunday 0 first. */
  cells: BestTimeCell[];
}

/**
 * GET /analytics/best_times: the mean engagement rate (latest snapshot) of the posts published in each
 * weekday and hour of the workspace's zone, for the selected accounts. With `start_date` and/or `end_date`
 * (the same rules and defaults as the timeseries) only posts published on those days count; without either,
 * every tracked post does.
 */
export async function bestTimes(deps: AnalyticsDeps, q: AnalyticsQuery, minSamples: number): Promise<BestTimes> {
  const dated = !!q.startDate || !!q.endDate;
  const r = await resolveQuery(deps, q);
  const range = dated ? r.current : undefined;
  const buckets = (await deps.store.bestTimeBuckets(q.workspaceId, range ? monthsOf(range) : undefined)).filter((b) => r.accounts.has(b.socialAccountId));
  const sums = new Map<string, { sum: number; samples: number }>();
  for (const b of buckets) {
    for (const [key, c] of Object.entries(b.cells)) {
      const [day, hour] = key.split(':') as [string, string];
      if (range && (day < range.start || day > range.end)) continue;
      const cellKey = `${weekdayOf(day)}-${hour}`;
      const acc = sums.get(cellKey) ?? { sum: 0, samples: 0 };
      sums.set(cellKey, { sum: acc.sum + c.sum, samples: acc.samples + c.samples });
    }
  }
  const cells: BestTimeCell[] = [];
  let totalSamples = 0;
  for (let dayOfWeek = 0; dayOfWeek < 7; dayOfWeek += 1) {
    for (let hour = 0; hour < 24; hour += 1) {
      const { sum, samples } = sums.get(`${dayOfWeek}-${hour}`) ?? { sum: 0, samples: 0 };
      totalSamples += samples;
      cells.push({ dayOfWeek, hour, samples, meanEngagementRate: samples >= minSamples && samples > 0 ? sum / samples : null });
    }
  }
  return { timezone: r.zone, minSamples, totalSamples, range, cells };
}
