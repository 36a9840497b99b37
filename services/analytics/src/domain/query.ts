import { invalidParameters } from '@spa/errors';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { comparisonRange, localDay, monthsOf, resolveRange, type DayRange } from './dates.js';
import { addMetrics } from './engagement.js';
import { ZERO, type Metrics } from './model.js';
import type { AnalyticsDeps } from './ports.js';

export interface AnalyticsQuery {
  workspaceId: number;
  startDate?: string | undefined;
  endDate?: string | undefined;
  socialAccountId?: number | undefined;
  platform?: string | undefined;
}

/** A query checked against the workspace: its zone, its range and prior range, and the accounts it covers. */
export interface ResolvedQuery {
  zone: string;
  current: DayRange;
  comparison: DayRange;
  /** The accounts the filters select (account and platform compose). */
  accounts: Map<number, Platform>;
}

/**
 * Checks the filters (422 naming each bad parameter: an unknown platform, an account that is not the
 * workspace's — indistinguishable from one that does not exist — and the dates) and resolves them.
 */
export async function resolveQuery(deps: Pick<AnalyticsDeps, 'accounts' | 'clock'>, q: AnalyticsQuery): Promise<ResolvedQuery> {
  const problems: string[] = [];
  if (q.platform !== undefined && !(PLATFORMS as readonly string[]).includes(q.platform)) problems.push(`platform must be one of ${PLATFORMS.join(', ')} (got ${JSON.stringify(q.platform)})`);
  const [zone, all] = await Promise.all([deps.accounts.timezone(q.workspaceId), deps.accounts.socialAccounts(q.workspaceId)]);
  if (q.socialAccountId !== undefined && !all.some((a) => a.id === q.socialAccountId)) problems.push(`social_account_id: no social account ${q.socialAccountId} in this workspace`);
  let current: DayRange | undefined;
  try {
    current = resolveRange(q.startDate, q.endDate, localDay(deps.clock.now(), zone));
  } catch (err) {
    problems.push(...((err as { details?: string[] }).details ?? [String(err)]));
  }
  if (problems.length || !current) throw invalidParameters(problems);
  const accounts = new Map(
    all.filter((a) => (q.socialAccountId === undefined || a.id === q.socialAccountId) && (q.platform === undefined || a.platform === q.platform)).map((a) => [a.id, a.platform]),
  );
  return { zone, current, comparison: comparisonRange(current), accounts };
}

/** Growth per day of the selected accounts over the ranges (days without data absent), and per account. */
export async function dailyTotals(deps: Pick<AnalyticsDeps, 'store'>, workspaceId: number, r: ResolvedQuery): Promise<Map<number, Map<string, Metrics>>> {
  const buckets = await deps.store.monthBuckets(workspaceId, monthsOf(r.comparison, r.current));
  const perAccount = new Map<number, Map<string, Metrics>>();
  for (const b of buckets) {
    if (!r.accounts.has(b.socialAccountId)) continue;
    const days = perAccount.get(b.socialAccountId) ?? new Map<string, Metrics>();
    for (const [day, m] of Object.entries(b.days)) days.set(day, addMetrics(days.get(day) ?? ZERO, m));
    perAccount.set(b.socialAccountId, days);
  }
  return perAccount;
}

/** The sum over a range of an account's days. */
export function sumRange(days: Map<string, Metrics> | undefined, range: DayRange): Metrics {
  let total = ZERO;
  for (const [day, m] of days ?? []) if (day >= range.start && day <= range.end) total = addMetrics(total, m);
  return total;
}
