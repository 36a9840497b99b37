import { daysBetween, type DayRange } from './dates.js';
import type { DayTotals } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { dailyTotals, resolveQuery, type AnalyticsQuery } from './query.js';
import { addSums, NO_SUMS, sumsRate } from './sums.js';

export interface AnalyticsPoint {
  date: string;
  /** Impressions gained that day by the posts whose platform reports them; null when none did. */
  impressions: number | null;
  /** How many posts' impressions `impressions` counts. */
  impressionsReportedBy: number;
  /** Engagements over impressions of the day's growth, of the posts reporting both; null when there are none or no impressions. */
  engagementRate: number | null;
}

/** One point per day of the range; a day without reported data has null counts, reported by no post. */
export function points(perDay: Map<string, DayTotals>, range: DayRange): AnalyticsPoint[] {
  return daysBetween(range).map((date) => {
    const s = perDay.get(date) ?? NO_SUMS;
    return { date, impressions: s.values.impressions, impressionsReportedBy: s.reportedBy.impressions, engagementRate: sumsRate(s) };
  });
}

/** GET /analytics/timeseries: the range's days and the prior period's, in the workspace's zone. */
export async function timeseries(deps: AnalyticsDeps, q: AnalyticsQuery): Promise<{ current: AnalyticsPoint[]; comparison: AnalyticsPoint[] }> {
  const r = await resolveQuery(deps, q);
  const perAccount = await dailyTotals(deps, q.workspaceId, r);
  const merged = new Map<string, DayTotals>();
  for (const account of perAccount.values()) for (const [day, s] of account.days) merged.set(day, addSums(merged.get(day) ?? NO_SUMS, s));
  return { current: points(merged, r.current), comparison: points(merged, r.comparison) };
}
