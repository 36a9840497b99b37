import { AnalyticsServiceService, type AnalyticsFilter, type MetricTotals, type RollupRow as RollupRowMessage } from '@spa/contracts/analytics/v1/analytics';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { bestTimes } from '../domain/best-times.js';
import type { AnalyticsDeps } from '../domain/ports.js';
import type { AnalyticsQuery } from '../domain/query.js';
import { rollups, type RollupRow, type Totals } from '../domain/rollups.js';
import { shortenLinks } from '../domain/short-links.js';
import { timeseries, type AnalyticsPoint } from '../domain/timeseries.js';

const query = (f: AnalyticsFilter | undefined): AnalyticsQuery => ({
  workspaceId: f?.workspaceId ?? 0,
  startDate: f?.startDate,
  endDate: f?.endDate,
  socialAccountId: f?.socialAccountId,
  platform: f?.platform,
});

/** Sums on the wire: a count no post reported is 0 there, with reported_by 0 saying it is unknown. */
const totals = (t: Totals): MetricTotals => ({
  impressions: t.impressions ?? 0,
  likes: t.likes ?? 0,
  replies: t.replies ?? 0,
  reposts: t.reposts ?? 0,
  clicks: t.clicks ?? 0,
  reportedBy: t.reportedBy,
  engagementRate: t.engagementRate ?? undefined,
});
const row = (r: RollupRow): RollupRowMessage => ({ platform: r.platform ?? '', socialAccountId: r.socialAccountId, current: totals(r.current), previous: totals(r.previous) });

export function analyticsService(deps: AnalyticsDeps, opts: { bestTimesMinSamples: number }): ServiceBinding {
  return bindService('analytics.v1.AnalyticsService', AnalyticsServiceService, {
    getTimeseries: async (req) => {
      const r = await timeseries(deps, query(req.filter));
      // A day's unknown impressions and rate are 0 on the wire, told apart by impressions_reported_by and has_engagement_rate.
      const point = (p: AnalyticsPoint) => ({
        date: p.date,
        impressions: p.impressions ?? 0,
        impressionsReportedBy: p.impressionsReportedBy,
        engagementRate: p.engagementRate ?? 0,
        hasEngagementRate: p.engagementRate !== null,
      });
      return { current: r.current.map(point), comparison: r.comparison.map(point) };
    },
    getRollups: async (req) => {
      const r = await rollups(deps, query(req.filter));
      return {
        startDate: r.current.start,
        endDate: r.current.end,
        previousStartDate: r.previous.start,
        previousEndDate: r.previous.end,
        total: row(r.total),
        platforms: r.platforms.map(row),
        accounts: r.accounts.map(row),
      };
    },
    shortenLinks: async (req) => {
      const r = await shortenLinks(deps.links, { workspaceId: req.workspaceId, postAccountId: req.postAccountId, texts: req.texts });
      return { texts: r.texts, shortUrl: r.first?.shortUrl, originalUrl: r.first?.originalUrl };
    },
    getBestTimes: async (req) => {
      const { range, ...b } = await bestTimes(deps, query(req.filter), opts.bestTimesMinSamples);
      return { ...b, startDate: range?.start, endDate: range?.end, cells: b.cells.map((c) => ({ ...c, meanEngagementRate: c.meanEngagementRate ?? undefined })) };
    },
  });
}
