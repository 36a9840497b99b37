import { invalidParameters } from '@spa/errors';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { comparisonRange, localDay, monthsOf, resolveRange, type DayRange } from './dates.js';
import { METRIC_NAMES, type DayTotals, type MetricName, type ReportSpan, type Sums } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { addSums, NO_SUMS, withReportedBy } from './sums.js';

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

/** One account's days over the ranges asked (days without data absent), and its posts' report spans. */
export interface AccountDays {
  days: Map<string, DayTotals>;
  /** By post account id, the first and last day each count of the post was reported on. */
  reporters: Map<number, Partial<Record<MetricName, ReportSpan>>>;
}

/** Growth per day of the selected accounts over the ranges, per account. */
export async function dailyTotals(deps: Pick<AnalyticsDeps, 'store'>, workspaceId: number, r: ResolvedQuery): Promise<Map<number, AccountDays>> {
  const buckets = await deps.store.monthBuckets(workspaceId, monthsOf(r.comparison, r.current));
  const perAccount = new Map<number, AccountDays>();
  for (const b of buckets) {
    if (!r.accounts.has(b.socialAccountId)) continue;
    const account = perAccount.get(b.socialAccountId) ?? { days: new Map<string, DayTotals>(), reporters: new Map() };
    for (const [day, m] of Object.entries(b.days)) account.days.set(day, addSums(account.days.get(day) ?? NO_SUMS, m));
    for (const [id, spans] of Object.entries(b.reporters)) {
      const merged = { ...account.reporters.get(Number(id)) };
      for (const [name, [first, last]] of Object.entries(spans) as Array<[MetricName, ReportSpan]>) {
        const known = merged[name];
        merged[name] = [known && known[0] < first ? known[0] : first, known && known[1] > last ? known[1] : last];
      }
      account.reporters.set(Number(id), merged);
    }
    perAccount.set(b.socialAccountId, account);
  }
  return perAccount;
}

/** The sums over a range of an account's days; `reportedBy` counts each post reporting in the range once. */
export function sumRange(account: AccountDays | undefined, range: DayRange): Sums {
  let total = NO_SUMS;
  for (const [day, m] of account?.days ?? []) if (day >= range.start && day <= range.end) total = addSums(total, m);
  const reportedBy = { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 };
  for (const spans of account?.reporters.values() ?? []) {
    for (const name of METRIC_NAMES) {
      const span = spans[name];
      if (span && span[0] <= range.end && span[1] >= range.start) reportedBy[name] += 1;
    }
  }
  return withReportedBy(total, reportedBy);
}
