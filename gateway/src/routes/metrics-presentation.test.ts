import { GetRollupsResponse, GetTimeseriesResponse } from '@spa/contracts/analytics/v1/analytics';
import { platformCodec, platformStatusCodec, postStatusCodec } from '@spa/contracts/codecs';
import { countsToWire } from '@spa/contracts/metric-counts';
import { Post } from '@spa/contracts/posts/v1/posts';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/authenticator.js';
import type { Clients } from '../clients.js';
import { analyticsRoutes } from './analytics.js';
import { presentPost } from './posts.js';
import { PostSchema } from './schemas.js';

/** What a count a platform does not report becomes in the public JSON: null, never 0, and valid against the documented schema. */
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
const principal = { workspaceId: 1 } as Principal;
const run = async (path: string, analytics: Partial<Clients['analytics']>) => {
  const r = analyticsRoutes.find((x) => x.path === path)!;
  const body = json(await r.handle!({ principal, clients: { analytics } as Clients, params: {}, query: {}, body: undefined }));
  return { body, valid: r.response!.safeParse(body) };
};

describe('post_metric', () => {
  it('is null for each count the platform does not report, and keeps a reported 0', () => {
    const post = Post.fromPartial({
      id: 1,
      state: postStatusCodec.toProto('posted'),
      body: 'hello',
      createdAt: '2026-05-01T10:00:00.000Z',
      postAccounts: [
        {
          id: 10,
          socialAccountId: 2,
          platformKind: platformCodec.toProto('bluesky'),
          username: 'u',
          state: platformStatusCodec.toProto('posted'),
          postMetric: { ...countsToWire({ impressions: null, likes: 0, replies: 3, reposts: 1, clicks: null }), fetchedAt: '2026-05-02T10:00:00.000Z' },
        },
      ],
    });
    const presented = presentPost(post);
    expect(PostSchema.safeParse(presented).error).toBeUndefined();
    expect(json(presented).post_accounts).toMatchObject([{ post_metric: { impressions: null, likes: 0, replies: 3, reposts: 1, clicks: null, engagement_rate: null } }]);
  });
});

describe('analytics', () => {
  it('answers a rollup count no post reported as null, with how many posts each sum counts', async () => {
    const none = { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 };
    const { body, valid } = await run('/analytics/rollups', {
      getRollups: async () =>
        GetRollupsResponse.fromPartial({
          startDate: '2026-11-01',
          endDate: '2026-11-30',
          previousStartDate: '2026-10-02',
          previousEndDate: '2026-10-31',
          total: {
            current: { impressions: 300, likes: 35, replies: 0, reposts: 2, clicks: 0, engagementRate: 0.11, reportedBy: { impressions: 1, likes: 2, replies: 2, reposts: 2, clicks: 0 } },
            previous: { reportedBy: none },
          },
        }),
    });
    expect(valid.error).toBeUndefined();
    expect(body.total).toEqual({
      platform: null,
      social_account_id: null,
      current: { impressions: 300, likes: 35, replies: 0, reposts: 2, clicks: null, reported_by: { impressions: 1, likes: 2, replies: 2, reposts: 2, clicks: 0 }, engagement_rate: 0.11 },
      previous: { impressions: null, likes: null, replies: null, reposts: null, clicks: null, reported_by: none, engagement_rate: null },
      change: { impressions: null, engagement_rate: null },
    });
  });

  it('answers a day without reported impressions with null impressions and rate, not 0', async () => {
    const { body, valid } = await run('/analytics/timeseries', {
      getTimeseries: async () =>
        GetTimeseriesResponse.fromPartial({
          current: [
            { date: '2026-11-01', impressions: 0, impressionsReportedBy: 0, engagementRate: 0, hasEngagementRate: false },
            { date: '2026-11-02', impressions: 0, impressionsReportedBy: 2, engagementRate: 0, hasEngagementRate: false },
            { date: '2026-11-03', impressions: 200, impressionsReportedBy: 1, engagementRate: 0.1, hasEngagementRate: true },
          ],
        }),
    });
    expect(valid.error).toBeUndefined();
    expect(body.current).toEqual([
      { date: '2026-11-01', impressions: null, impressions_reported_by: 0, engagement_rate: null },
      { date: '2026-11-02', impressions: 0, impressions_reported_by: 2, engagement_rate: null },
      { date: '2026-11-03', impressions: 200, impressions_reported_by: 1, engagement_rate: 0.1 },
    ]);
  });
});
