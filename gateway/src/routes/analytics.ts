import type { AnalyticsFilter, AnalyticsPoint, MetricTotals, RollupRow } from '@spa/contracts/analytics/v1/analytics';
import { PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import type { Principal } from '../auth/authenticator.js';
import { route } from './route.js';
import { idParam } from './schemas.js';

const date = z.string().describe('A calendar day `YYYY-MM-DD` in the workspace’s time zone (preferences.timezone)');

const filterFields = {
  social_account_id: idParam.optional().describe('Only this account (another workspace’s account is answered 422, like an unknown one)'),
  platform: z
    .string()
    .optional()
    .describe(`Only accounts on this platform, aggregated across them; composes with social_account_id. One of ${PLATFORMS.join(', ')}`),
};

const RangeQuery = z
  .object({
    start_date: date.optional().describe('First day, inclusive. Default: 29 days before end_date (30 days in all)'),
    end_date: date.optional().describe('Last day, inclusive. Default: today in the workspace’s zone (or 29 days after start_date). At most 366 days in all'),
    ...filterFields,
  })
  .strict();
type RangeQuery = z.infer<typeof RangeQuery>;

const filter = (principal: Principal, q: Partial<RangeQuery>): AnalyticsFilter => ({
  workspaceId: principal.workspaceId,
  startDate: q.start_date,
  endDate: q.end_date,
  socialAccountId: q.social_account_id,
  platform: q.platform,
});

const AnalyticsPointSchema = z
  .object({
    date: z.string().describe('YYYY-MM-DD in the workspace’s zone'),
    impressions: z
      .number()
      .int()
      .nullable()
      .describe(
        'Impressions gained that day by the posts whose platform reports impressions: the growth between snapshots, spread over the days it happened, so no post is counted twice. null when no post reported impressions that day (a platform that does not report them adds nothing, never 0)',
      ),
    impressions_reported_by: z.number().int().describe('How many posts’ impressions `impressions` counts'),
    engagement_rate: z
      .number()
      .nullable()
      .describe(
        '(likes + replies + reposts + clicks) / impressions of the day’s growth, over the posts that report impressions and at least one interaction; null when there are none or no impressions',
      ),
  })
  .meta({ id: 'AnalyticsPoint' });

const count = (what: string) =>
  z.number().int().nullable().describe(`${what} of the period, summed over the posts whose platform reports them (reported_by says how many); null when no post reported them (never 0 for unknown)`);

const TotalsSchema = z
  .object({
    impressions: count('Impressions'),
    likes: count('Likes'),
    replies: count('Replies'),
    reposts: count('Reposts'),
    clicks: count('Link clicks'),
    reported_by: z
      .object({ impressions: z.number().int(), likes: z.number().int(), replies: z.number().int(), reposts: z.number().int(), clicks: z.number().int() })
      .describe('Per count, how many posts reported it within the period (each post once): the posts its sum counts'),
    engagement_rate: z
      .number()
      .nullable()
      .describe('(likes + replies + reposts + clicks) / impressions over the posts that report impressions and at least one interaction; null when there are none or no impressions'),
  })
  .meta({ id: 'AnalyticsTotals' });

const RollupRowSchema = z
  .object({
    platform: z.string().nullable().describe('null on the workspace total'),
    social_account_id: z.number().int().nullable().describe('Set on per-account rows'),
    current: TotalsSchema,
    previous: TotalsSchema.describe('The prior period of the same length, ending the day before start_date'),
    change: z
      .object({ impressions: z.number().nullable(), engagement_rate: z.number().nullable() })
      .describe('Relative change of impressions ((current − previous) / previous) and absolute change of the engagement rate; null when either value is null or the previous impressions are 0'),
  })
  .meta({ id: 'AnalyticsRollupRow' });

/** A sum no post reported (reported_by 0) is 0 on the wire and null here. */
const totals = (t: MetricTotals | undefined) => {
  const by = { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0, ...t?.reportedBy };
  const sum = (name: keyof typeof by) => (by[name] > 0 ? (t?.[name] ?? 0) : null);
  return {
    impressions: sum('impressions'),
    likes: sum('likes'),
    replies: sum('replies'),
    reposts: sum('reposts'),
    clicks: sum('clicks'),
    reported_by: by,
    engagement_rate: t?.engagementRate ?? null,
  };
};

/** A day's unknown impressions and rate are 0 on the wire, told apart by impressions_reported_by and has_engagement_rate. */
const point = (p: AnalyticsPoint) => ({
  date: p.date,
  impressions: p.impressionsReportedBy > 0 ? p.impressions : null,
  impressions_reported_by: p.impressionsReportedBy,
  engagement_rate: p.hasEngagementRate ? p.engagementRate : null,
});

const rollupRow = (r: RollupRow | undefined) => {
  const current = totals(r?.current);
  const previous = totals(r?.previous);
  return {
    platform: r?.platform || null,
    social_account_id: r?.socialAccountId ?? null,
    current,
    previous,
    change: {
      impressions: previous.impressions && current.impressions !== null ? (current.impressions - previous.impressions) / previous.impressions : null,
      engagement_rate: current.engagement_rate !== null && previous.engagement_rate !== null ? current.engagement_rate - previous.engagement_rate : null,
    },
  };
};

export const analyticsRoutes = [
  route({
    method: 'get',
    path: '/analytics/timeseries',
    tag: 'Analytics',
    summary: 'Impressions and engagement rate per day, with the prior period',
    description:
      'One point per day of the range in the workspace’s time zone (a day without reported impressions has `impressions` and `engagement_rate` null), and `comparison`: the prior period of the same length ending the day before start_date. Counts come from metric snapshots fetched from each platform after posting (1 h, 6 h, 24 h, 72 h, 7 days, then weekly to 28 days by default); each snapshot’s growth over the previous one is attributed to the days it happened on. A count a platform does not report is never taken as 0: sums count only the posts that reported it. 422 names the parameter for a bad date, end_date before start_date, a range over 366 days, an unknown platform or an account that is not the workspace’s.',
    audience: 'api_key',
    scope: 'analytics:read',
    plan: 'paid',
    query: RangeQuery,
    status: 200,
    response: z.object({ current: z.array(AnalyticsPointSchema), comparison: z.array(AnalyticsPointSchema) }).meta({ id: 'AnalyticsTimeseries' }),
    handle: async ({ clients, principal, query }) => {
      const r = await clients.analytics.getTimeseries({ filter: filter(principal, query) });
      return { current: r.current.map(point), comparison: r.comparison.map(point) };
    },
  }),
  route({
    method: 'get',
    path: '/analytics/rollups',
    tag: 'Analytics',
    summary: 'Totals over a period per platform and per account, against the prior period',
    description:
      'The same range, filters and defaults as the timeseries. `total` sums every selected account; `platforms` has one row per platform with a selected account, `accounts` one row per selected account (accounts without data included, their counts null). Counts are the growth within the period (see the timeseries), each summed over the posts whose platform reports it, with `reported_by` saying how many posts that is; a count no post reported is null, never 0.',
    audience: 'api_key',
    scope: 'analytics:read',
    plan: 'paid',
    query: RangeQuery,
    status: 200,
    response: z
      .object({
        start_date: z.string(),
        end_date: z.string(),
        previous_start_date: z.string(),
        previous_end_date: z.string(),
        total: RollupRowSchema,
        platforms: z.array(RollupRowSchema),
        accounts: z.array(RollupRowSchema),
      })
      .meta({ id: 'AnalyticsRollups' }),
    handle: async ({ clients, principal, query }) => {
      const r = await clients.analytics.getRollups({ filter: filter(principal, query) });
      return {
        start_date: r.startDate,
        end_date: r.endDate,
        previous_start_date: r.previousStartDate,
        previous_end_date: r.previousEndDate,
        total: rollupRow(r.total),
        platforms: r.platforms.map(rollupRow),
        accounts: r.accounts.map(rollupRow),
      };
    },
  }),
  route({
    method: 'get',
    path: '/analytics/best_times',
    tag: 'Analytics',
    summary: 'Mean engagement rate by weekday and hour of posting',
    description:
      'For every weekday (0 = Sunday) and hour of the workspace’s time zone: how many published posts of the selected accounts went out then (`samples`) and the mean of their latest engagement rates. A cell with fewer than `min_samples` posts has `mean_engagement_rate: null` (not enough data to say). Posts without impressions yet are not counted. With `start_date` and/or `end_date` (the same rules and defaults as the timeseries) only posts published on those days of the workspace’s zone count, and the response names the range; without either, every tracked post counts and `start_date`/`end_date` are null.',
    audience: 'api_key',
    scope: 'analytics:read',
    plan: 'paid',
    query: RangeQuery,
    status: 200,
    response: z
      .object({
        timezone: z.string(),
        start_date: z.string().nullable().describe('First posting day counted (inclusive); null when no date was asked'),
        end_date: z.string().nullable().describe('Last posting day counted (inclusive); null when no date was asked'),
        min_samples: z.number().int(),
        total_samples: z.number().int(),
        cells: z.array(
          z.object({
            day_of_week: z.number().int().describe('0 = Sunday … 6 = Saturday'),
            hour: z.number().int().describe('0–23'),
            samples: z.number().int(),
            mean_engagement_rate: z.number().nullable(),
          }),
        ),
      })
      .meta({ id: 'AnalyticsBestTimes' }),
    handle: async ({ clients, principal, query }) => {
      const r = await clients.analytics.getBestTimes({ filter: filter(principal, query) });
      return {
        timezone: r.timezone,
        start_date: r.startDate ?? null,
        end_date: r.endDate ?? null,
        min_samples: r.minSamples,
        total_samples: r.totalSamples,
        cells: r.cells.map((c) => ({ day_of_week: c.dayOfWeek, hour: c.hour, samples: c.samples, mean_engagement_rate: c.meanEngagementRate ?? null })),
      };
    },
  }),
];
