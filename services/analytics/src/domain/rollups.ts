import type { Platform } from '@spa/vocabulary';
import type { DayRange } from './dates.js';
import type { Metrics, ReportedBy, Sums } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { dailyTotals, resolveQuery, sumRange, type AnalyticsQuery } from './query.js';
import { addSums, NO_SUMS, sumsRate } from './sums.js';

/** A period's counts: each the sum of the posts that reported it, null when none did, and how many did. */
export type Totals = Metrics & {
  reportedBy: ReportedBy;
  /** Engagements over impressions of the posts reporting both; null when there are none or no impressions. */
  engagementRate: number | null;
};

export interface RollupRow {
  platform?: Platform | undefined;
  socialAccountId?: number | undefined;
  current: Totals;
  previous: Totals;
}

export interface Rollups {
  current: DayRange;
  previous: DayRange;
  total: RollupRow;
  platforms: RollupRow[];
  accounts: RollupRow[];
}

const totals = (s: Sums): Totals => ({ ...s.values, reportedBy: s.reportedBy, engagementRate: sumsRate(s) });

/** GET /analytics/rollups: totals of the period and of the prior one, for the workspace, per platform and per account. */
export async function rollups(deps: AnalyticsDeps, q: AnalyticsQuery): Promise<Rollups> {
  const r = await resolveQuery(deps, q);
  const perAccount = await dailyTotals(deps, q.workspaceId, r);
  const accounts = [...r.accounts].map(([id, platform]) => ({ id, platform, current: sumRange(perAccount.get(id), r.current), previous: sumRange(perAccount.get(id), r.comparison) }));
  const byPlatform = new Map<Platform, { current: Sums; previous: Sums }>();
  let current = NO_SUMS;
  let previous = NO_SUMS;
  // Each post belongs to one account: the posts counted per account add up across accounts.
  for (const a of accounts) {
    const p = byPlatform.get(a.platform) ?? { current: NO_SUMS, previous: NO_SUMS };
    byPlatform.set(a.platform, { current: addSums(p.current, a.current), previous: addSums(p.previous, a.previous) });
    current = addSums(current, a.current);
    previous = addSums(previous, a.previous);
  }
  return {
    current: r.current,
    previous: r.comparison,
    total: { current: totals(current), previous: totals(previous) },
    platforms: [...byPlatform].sort(([a], [b]) => a.localeCompare(b)).map(([platform, t]) => ({ platform, current: totals(t.current), previous: totals(t.previous) })),
    accounts: accounts.sort((a, b) => a.id - b.id).map((a) => ({ platform: a.platform, socialAccountId: a.id, current: totals(a.current), previous: totals(a.previous) })),
  };
}
