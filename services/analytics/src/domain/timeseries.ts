import { daysBetween, type DayRange } from './dates.js';
import { addMetrics, engagementRate } from './engagement.js';
import { ZERO, type Metrics } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { dailyTotals, resolveQuery, type AnalyticsQuery } from './query.js';

export interface AnalyticsPoint {
  date: string;
  impressions: number;
  /** Engagements over impressions of the day's growth; 0 on a day without impressions. */
  engagementRate: number;
}

/** One point per day of the range, days without data present with zeros. */
export function points(perDay: Map<string, Metrics>, range: DayRange): AnalyticsPoint[] {
  return daysBetween(range).map((date) => {
    const m = perDay.get(date) ?? ZERO;
    return { date, impressions: m.impressions, engagementRate: engagementRate(m) ?? 0 };
  });
}

/** GET /analytics/timeseries: the range's days and the prior period's, in the workspace's zone. */
export async function timeseries(deps: AnalyticsDeps, q: AnalyticsQuery): Promise<{ current: AnalyticsPoint[]; comparison: AnalyticsPoint[] }> {
  const r = await resolveQuery(deps, q);
  const perAccount = await dailyTotals(deps, q.workspaceId, r);
  const merged = new Map<string, Metrics>();
  for (const days of perAccount.values()) for (const [day, m] of days) merged.set(day, addMetrics(merged.get(day) ?? ZERO, m));
  return { current: points(merged, r.current), comparison: points(merged, r.comparison) };
}
