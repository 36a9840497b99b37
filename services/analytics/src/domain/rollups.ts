import type { Platform } from '@spa/vocabulary';
import type { DayRange } from './dates.js';
import { addMetrics, engagementRate } from './engagement.js';
import { ZERO, type Metrics } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { dailyTotals, resolveQuery, sumRange, type AnalyticsQuery } from './query.js';

export interface Totals extends Metrics {
  engagementRate: number | null;
}

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

const totals = (m: Metrics): Totals => ({ ...m, engagementRate: engagementRate(m) });

/** GET /analytics/rollups: totals of the period and of the prior one, for the workspace, per platform and per account. */
export async function rollups(deps: AnalyticsDeps, q: AnalyticsQuery): Promise<Rollups> {
  const r = await resolveQuery(deps, q);
  const perAccount = await dailyTotals(deps, q.workspaceId, r);
  const accounts = [...r.accounts].map(([id, platform]) => ({ id, platform, current: sumRange(perAccount.get(id), r.current), previous: sumRange(perAccount.get(id), r.comparison) }));
  const byPlatform = new Map<Platform, { current: Metrics; previous: Metrics }>();
  let current = ZERO;
  let previous = ZERO;
  for (const a of accounts) {
    const p = byPlatform.get(a.platform) ?? { current: ZERO, previous: ZERO };
    byPlatform.set(a.platform, { current: addMetrics(p.current, a.current), previous: addMetrics(p.previous, a.previous) });
    current = addMetrics(current, a.current);
    previous = addMetrics(previous, a.previous);
  }
  return {
    current: r.current,
    previous: r.comparison,
    total: { current: totals(current), previous: totals(previous) },
    platforms: [...byPlatform].sort(([a], [b]) => a.localeCompare(b)).map(([platform, t]) => ({ platform, current: totals(t.current), previous: totals(t.previous) })),
    accounts: accounts.sort((a, b) => a.id - b.id).map((a) => ({ platform: a.platform, socialAccountId: a.id, current: totals(a.current), previous: totals(a.previous) })),
  };
}
