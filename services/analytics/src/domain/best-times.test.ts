import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { dropDatabases, TEST_INFRA, uniqueName } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoAnalyticsStore } from '../data/mongo-store.js';
import { bestTimes } from './best-times.js';
import type { Track } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { recordResult } from './record-result.js';

/** Best times on the real store (FerretDB locally), fed through recordResult like the collector does. */
const dbName = uniqueName('t_an_best');
let connection: Connection;
let deps: AnalyticsDeps;
const WS = 77;
const zone = 'America/New_York';

beforeAll(async () => {
  connection = await connectMongo(TEST_INFRA.mongoUrl, dbName);
  const store = new MongoAnalyticsStore(connection);
  await syncIndexes(connection);
  deps = {
    store,
    accounts: {
      timezone: async () => zone,
      socialAccounts: async () => [
        { id: 1, platform: 'twitter' },
        { id: 2, platform: 'bluesky' },
      ],
    },
    posts: { postedTargets: async () => [] },
    messaging: { sendFetch: async () => undefined, announceSnapshot: async () => undefined },
    clock: { now: () => new Date('2026-11-20T12:00:00Z') },
  };
  let seq = 0;
  /** A post published at `postedAt` whose one snapshot has `likes` per 100 impressions. */
  const post = async (id: number, socialAccountId: number, postedAt: string, likes: number, moreLikes?: number) => {
    const track: Track = {
      postAccountId: id,
      workspaceId: WS,
      postId: id,
      socialAccountId,
      platform: socialAccountId === 1 ? 'twitter' : 'bluesky',
      platformPostId: `p${id}`,
      postedAt: new Date(postedAt),
      status: 'active',
    };
    await store.insertTrack(track);
    const fetchedAt = new Date(new Date(postedAt).getTime() + 3_600_000);
    await recordResult(deps, { postAccountId: id, n: 1, outcome: 'ok', metrics: { impressions: 100, likes, replies: 0, reposts: 0, clicks: 0 }, fetchedAt }, ++seq);
    if (moreLikes !== undefined)
      await recordResult(
        deps,
        { postAccountId: id, n: 2, outcome: 'ok', metrics: { impressions: 100, likes: moreLikes, replies: 0, reposts: 0, clicks: 0 }, fetchedAt: new Date(fetchedAt.getTime() + 86_400_000) },
        ++seq,
      );
  };
  // Tuesdays 09:xx New York (14:xx UTC): 2026-09-29, 2026-10-06, 2026-10-13, 2026-11-03 (after the DST change: 14:30 UTC is 09:30 EST).
  await post(101, 1, '2026-09-29T13:30:00Z', 10);
  await post(102, 1, '2026-10-06T13:30:00Z', 20, 30); // its rate moves to 0.3: it still counts once
  await post(103, 2, '2026-10-13T13:30:00Z', 40);
  await post(104, 1, '2026-11-03T14:30:00Z', 50);
  // 2026-10-31 23:30 New York is already 2026-11-01 UTC: it belongs to October (Saturday 23:00).
  await post(105, 1, '2026-11-01T03:30:00Z', 5);
});
afterAll(async () => {
  await connection?.close();
  await dropDatabases([dbName]);
});

const cell = (b: Awaited<ReturnType<typeof bestTimes>>, dayOfWeek: number, hour: number) => b.cells.find((c) => c.dayOfWeek === dayOfWeek && c.hour === hour)!;

describe('best times by date range', () => {
  it('without dates: every tracked post, each once in its posting weekday and hour of the workspace zone', async () => {
    const b = await bestTimes(deps, { workspaceId: WS }, 2);
    expect(b.range).toBeUndefined();
    expect(b.totalSamples).toBe(5);
    expect(cell(b, 2, 9).samples).toBe(4);
    expect(cell(b, 2, 9).meanEngagementRate).toBeCloseTo((0.1 + 0.3 + 0.4 + 0.5) / 4);
    expect(cell(b, 6, 23).samples).toBe(1);
    expect(cell(b, 6, 23).meanEngagementRate).toBeNull(); // below min samples
  });

  it('only the posts published within start_date..end_date (the workspace’s days) count', async () => {
    const october = await bestTimes(deps, { workspaceId: WS, startDate: '2026-10-01', endDate: '2026-10-31' }, 2);
    expect(october.range).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(october.totalSamples).toBe(3); // 102, 103 and 105 (Oct 31 local), not 101 (September) nor 104 (November)
    expect(cell(october, 2, 9).samples).toBe(2);
    expect(cell(october, 2, 9).meanEngagementRate).toBeCloseTo((0.3 + 0.4) / 2);
    expect(cell(october, 6, 23).samples).toBe(1);

    const oneDay = await bestTimes(deps, { workspaceId: WS, startDate: '2026-11-03', endDate: '2026-11-03' }, 1);
    expect(oneDay.totalSamples).toBe(1);
    expect(cell(oneDay, 2, 9).meanEngagementRate).toBeCloseTo(0.5);
  });

  it('composes with the account and platform filters, and applies the timeseries defaults to one given end', async () => {
    const bluesky = await bestTimes(deps, { workspaceId: WS, platform: 'bluesky', startDate: '2026-10-01', endDate: '2026-10-31' }, 1);
    expect(bluesky.totalSamples).toBe(1);
    const account1 = await bestTimes(deps, { workspaceId: WS, socialAccountId: 1, startDate: '2026-09-01', endDate: '2026-10-31' }, 1);
    expect(account1.totalSamples).toBe(3);
    const fromOctober = await bestTimes(deps, { workspaceId: WS, startDate: '2026-10-05' }, 1);
    expect(fromOctober.range).toEqual({ start: '2026-10-05', end: '2026-11-03' }); // 30 days from start_date
    expect(fromOctober.totalSamples).toBe(4);
  });

  it('answers a bad range 422 naming the parameter, like the timeseries', async () => {
    await expect(bestTimes(deps, { workspaceId: WS, startDate: '2026-10-31', endDate: '2026-10-01' }, 1)).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    await expect(bestTimes(deps, { workspaceId: WS, startDate: 'yesterday' }, 1)).rejects.toMatchObject({ code: 'INVALID_PARAMETERS', details: [expect.stringContaining('start_date')] });
  });
});
