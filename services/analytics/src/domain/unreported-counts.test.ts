import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { dropDatabases, TEST_INFRA, uniqueName } from '@spa/testing';
import type { Platform } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoAnalyticsStore } from '../data/mongo-store.js';
import type { Metrics } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { recordResult } from './record-result.js';
import { rollups } from './rollups.js';
import { timeseries } from './timeseries.js';

/**
 * Counts a platform does not report (null) on the real store, fed through recordResult like the collector: sums count
 * only the posts that reported each count and say how many did, a count no post reported is null (never 0), and the
 * engagement rate takes only the posts that reported impressions.
 */
const dbName = uniqueName('t_an_unreported');
let connection: Connection;
let store: MongoAnalyticsStore;
let deps: AnalyticsDeps;
const WS = 78;
const ACCOUNTS: Array<{ id: number; platform: Platform }> = [
  { id: 1, platform: 'twitter' },
  { id: 2, platform: 'bluesky' },
  { id: 3, platform: 'discord' },
];
const counts = (impressions: number | null, likes: number | null, replies: number | null, reposts: number | null, clicks: number | null): Metrics => ({ impressions, likes, replies, reposts, clicks });

beforeAll(async () => {
  connection = await connectMongo(TEST_INFRA.mongoUrl, dbName);
  store = new MongoAnalyticsStore(connection);
  await syncIndexes(connection);
  deps = {
    store,
    accounts: { timezone: async () => 'UTC', socialAccounts: async () => ACCOUNTS },
    posts: { postedTargets: async () => [] },
    messaging: { sendFetch: async () => undefined, announceSnapshot: async () => undefined },
    clock: { now: () => new Date('2026-11-20T12:00:00Z') },
  };
  let seq = 0;
  const post = async (id: number, socialAccountId: number, postedAt: string, fetches: Array<[at: string, metrics: Metrics]>) => {
    const platform = ACCOUNTS.find((a) => a.id === socialAccountId)!.platform;
    await store.insertTrack({ postAccountId: id, workspaceId: WS, postId: id, socialAccountId, platform, platformPostId: `p${id}`, postedAt: new Date(postedAt), status: 'active' });
    for (const [i, [at, metrics]] of fetches.entries()) await recordResult(deps, { postAccountId: id, n: i + 1, outcome: 'ok', metrics, fetchedAt: new Date(at) }, ++seq);
  };
  // X without link clicks: two fetches, the second one's growth spread 15 h on Nov 2 and 8 h on Nov 3.
  await post(201, 1, '2026-11-02T08:00:00Z', [
    ['2026-11-02T09:00:00Z', counts(100, 10, 0, 0, null)],
    ['2026-11-03T08:00:00Z', counts(300, 30, 3, 0, null)],
  ]);
  // Bluesky reports no impressions nor clicks.
  await post(202, 2, '2026-11-02T10:00:00Z', [['2026-11-02T11:00:00Z', counts(null, 5, 1, 2, null)]]);
  // A platform that reports nothing.
  await post(203, 3, '2026-11-02T10:00:00Z', [['2026-11-02T11:00:00Z', counts(null, null, null, null, null)]]);
  // Impressions missing from one fetch, then reported again: only their growth since last known counts.
  await post(204, 1, '2026-11-05T08:00:00Z', [
    ['2026-11-05T09:00:00Z', counts(100, 1, 0, 0, null)],
    ['2026-11-05T10:00:00Z', counts(null, 2, 0, 0, null)],
    ['2026-11-05T11:00:00Z', counts(150, 3, 0, 0, null)],
  ]);
});
afterAll(async () => {
  await connection?.close();
  await dropDatabases([dbName]);
});

describe('counts a platform does not report', () => {
  it('are stored as null in the snapshot, not 0', async () => {
    expect((await store.snapshot('202:1'))?.metrics).toEqual(counts(null, 5, 1, 2, null));
    expect((await store.getTrack(203))?.last?.metrics).toEqual(counts(null, null, null, null, null));
  });

  it('leave a day’s impressions null with no post reporting them, and each reporting post counts once a day', async () => {
    const { current } = await timeseries(deps, { workspaceId: WS, startDate: '2026-11-01', endDate: '2026-11-03' });
    expect(current[0]).toEqual({ date: '2026-11-01', impressions: null, impressionsReportedBy: 0, engagementRate: null });
    // Nov 2: 100 + 130 of post 201 (its two fetches' growth), reported by that one post; Bluesky's post adds no impressions.
    expect(current[1]).toMatchObject({ date: '2026-11-02', impressions: 230, impressionsReportedBy: 1 });
    // Rate of the posts reporting impressions only: 201's likes 10 + 13 and replies 2 (clicks unreported); not Bluesky's likes.
    expect(current[1]!.engagementRate).toBeCloseTo(25 / 230);
    expect(current[2]).toMatchObject({ date: '2026-11-03', impressions: 70, impressionsReportedBy: 1 });
    expect(current[2]!.engagementRate).toBeCloseTo(8 / 70);
  });

  it('count only the growth since a count was last known when a fetch misses it', async () => {
    const { current } = await timeseries(deps, { workspaceId: WS, startDate: '2026-11-05', endDate: '2026-11-05' });
    expect(current).toEqual([{ date: '2026-11-05', impressions: 150, impressionsReportedBy: 1, engagementRate: 3 / 150 }]);
  });

  it('sum over the posts that reported each count, say how many did, and are null when none did', async () => {
    const r = await rollups(deps, { workspaceId: WS, startDate: '2026-11-01', endDate: '2026-11-03' });
    expect(r.total.current).toEqual({
      impressions: 300,
      likes: 35,
      replies: 4,
      reposts: 2,
      clicks: null,
      reportedBy: { impressions: 1, likes: 2, replies: 2, reposts: 2, clicks: 0 },
      engagementRate: 33 / 300,
    });
    expect(r.total.previous).toEqual({
      impressions: null,
      likes: null,
      replies: null,
      reposts: null,
      clicks: null,
      reportedBy: { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 },
      engagementRate: null,
    });
    const account = (id: number) => r.accounts.find((a) => a.socialAccountId === id)!.current;
    expect(account(2)).toEqual({
      impressions: null,
      likes: 5,
      replies: 1,
      reposts: 2,
      clicks: null,
      reportedBy: { impressions: 0, likes: 1, replies: 1, reposts: 1, clicks: 0 },
      engagementRate: null,
    });
    expect(account(3)).toEqual({
      impressions: null,
      likes: null,
      replies: null,
      reposts: null,
      clicks: null,
      reportedBy: { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 },
      engagementRate: null,
    });
    expect(r.platforms.map((p) => [p.platform, p.current.impressions])).toEqual([
      ['bluesky', null],
      ['discord', null],
      ['twitter', 300],
    ]);
  });

  it('count a post once over a range however many days and months its growth spans', async () => {
    const r = await rollups(deps, { workspaceId: WS, startDate: '2026-11-01', endDate: '2026-11-30' });
    expect(r.total.current.impressions).toBe(450);
    expect(r.total.current.reportedBy.impressions).toBe(2); // 201 and 204
    expect(r.total.current.reportedBy.likes).toBe(3); // 201, 202 and 204
  });
});
