import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, request, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';

let stack: Stack;
let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  stack = await startStack({ publishing: true });
  [ws, other] = await Promise.all([createWorkspace(stack), createWorkspace(stack)]);
  // Counts grow with each post's age, as on a real platform.
  await request(stack.sandboxUrl!, '/_sandbox/metrics_growth', { body: { per_minute: 6 } });
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}, who: TestWorkspace = ws) => stack.api(path, { token: who.apiKey, localAddress: freshClientAddress(), ...opts });
const sandbox = (path: string, body?: unknown) => request(stack.sandboxUrl!, path, body === undefined ? {} : { body });
const connect = async (platform: string, username: string, who: TestWorkspace = ws) =>
  (await stack.accounts.connectSocialAccount({ workspaceId: who.workspaceId, platform, username, sandbox: true })).socialAccountId;

/** Each count null when the platform does not report it. */
type Metric = { impressions: number | null; likes: number | null; replies: number | null; reposts: number | null; clicks: number | null; engagement_rate: number | null; fetched_at: string };
type Target = { id: number; social_account_id: number; platform: string; platform_status: string; post_metric: Metric | null };

async function publish(body: string, accounts: number[], who: TestWorkspace = ws): Promise<number> {
  const created = (await call('/posts', { body: { post: { body, post_accounts: accounts.map((id) => ({ social_account_id: id })) } } }, who)).json.post;
  const res = await call(`/posts/${created.id}/publishes`, { method: 'POST', body: {} }, who);
  expect(res.status, res.text).toBe(202);
  return created.id as number;
}

/** Waits until every target of the post has a snapshot at least as far as fetch `n` would go (fetched_at after `after`). */
async function metricsOf(postId: number, ready: (targets: Target[]) => boolean, who: TestWorkspace = ws, timeout = 45_000): Promise<Target[]> {
  let targets: Target[] = [];
  await expect
    .poll(
      async () => {
        targets = (await call(`/posts/${postId}`, {}, who)).json.post.post_accounts;
        return ready(targets);
      },
      { timeout, interval: 500 },
    )
    .toBe(true);
  return targets;
}

/** The impressions of the days that have them (a day no post reported impressions on is null). */
const sum = (points: Array<{ impressions: number | null }>) => points.reduce((a, p) => a + (p.impressions ?? 0), 0);
const unreported = (points: Array<{ impressions: number | null; impressions_reported_by: number; engagement_rate: number | null }>) =>
  points.every((p) => p.impressions === null && p.impressions_reported_by === 0 && p.engagement_rate === null);

describe('metrics collected from the platforms', () => {
  let postId: number;
  let accounts: { x: number; masto: number; threads: number };
  let targets: Target[];

  it('fetches snapshots on the local schedule and shows the latest as post_metric', async () => {
    accounts = { x: await connect('twitter', 'an_x'), masto: await connect('mastodon', 'an_masto'), threads: await connect('threads', 'an_threads') };
    postId = await publish('measured post', [accounts.x, accounts.masto, accounts.threads]);
    // The schedule here is 2 s, 6 s and 15 s after posting: wait for the third fetch of every target.
    const first = await metricsOf(postId, (ts) => ts.every((t) => t.post_metric !== null));
    for (const t of first) expect(t.post_metric!.fetched_at).toMatch(/Z$/);
    targets = await metricsOf(postId, (ts) => ts.every((t) => Date.parse(t.post_metric?.fetched_at ?? '') - Date.parse(first.find((f) => f.id === t.id)!.post_metric!.fetched_at) > 8_000));
    const x = targets.find((t) => t.platform === 'twitter')!.post_metric!;
    const before = first.find((t) => t.platform === 'twitter')!.post_metric!;
    expect(x.impressions).toBeGreaterThan(before.impressions!); // grew between snapshots
    // The rate counts the interactions the platform reports.
    expect(x.engagement_rate).toBeCloseTo([x.likes, x.replies, x.reposts, x.clicks].reduce<number>((a, v) => a + (v ?? 0), 0) / x.impressions!, 10);
    // Mastodon reports no impressions nor clicks: they are null and so is its rate, never a made-up number.
    const masto = targets.find((t) => t.platform === 'mastodon')!.post_metric!;
    expect(masto).toMatchObject({ impressions: null, clicks: null, engagement_rate: null });
    expect(masto.likes).toBeGreaterThan(0);
  });

  it('attributes growth so the timeseries and rollups add up to the latest snapshots', async () => {
    const expected = targets.reduce((a, t) => a + (t.post_metric!.impressions ?? 0), 0);
    type Point = { date: string; impressions: number | null; impressions_reported_by: number; engagement_rate: number | null };
    let series: { current: Point[]; comparison: Point[] } = { current: [], comparison: [] };
    // The latest snapshot may still be on its way to the series: wait until the sums meet.
    await expect
      .poll(
        async () => {
          series = (await call('/analytics/timeseries')).json;
          return sum(series.current);
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(expected);
    expect(series.current).toHaveLength(30);
    expect(series.comparison).toHaveLength(30);
    // Nothing was posted in the prior period: no post reported impressions there, so they are null, not 0.
    expect(unreported(series.comparison)).toBe(true);
    const today = series.current.at(-1)!;
    expect(today.impressions).toBeGreaterThan(0);
    expect(today.impressions_reported_by).toBe(2); // X and Threads; Mastodon reports none
    expect(today.engagement_rate).toBeGreaterThan(0);
    // Days are consecutive and end with today (the workspace's zone, UTC by default).
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));

    const rollups = (await call('/analytics/rollups')).json;
    expect(rollups.total.current.impressions).toBe(sum(series.current));
    expect(rollups.platforms.map((p: { platform: string }) => p.platform)).toEqual(['mastodon', 'threads', 'twitter']);
    const xRow = rollups.accounts.find((a: { social_account_id: number }) => a.social_account_id === accounts.x);
    const xNow = (await call(`/posts/${postId}`)).json.post.post_accounts.find((t: Target) => t.platform === 'twitter').post_metric;
    expect(xRow.current.impressions).toBe(xNow.impressions);
    expect(xRow.current.likes).toBe(xNow.likes);
    expect(rollups.total.current.reported_by).toMatchObject({ impressions: 2, likes: 3 });
    expect(rollups.total.previous).toMatchObject({ impressions: null, likes: null, engagement_rate: null, reported_by: { impressions: 0, likes: 0 } });
    // Mastodon's row: its likes, but impressions and clicks it does not report are null (reported by no post).
    const mastoRow = rollups.accounts.find((a: { social_account_id: number }) => a.social_account_id === accounts.masto);
    expect(mastoRow.current).toMatchObject({ impressions: null, clicks: null, engagement_rate: null, reported_by: { impressions: 0, likes: 1, clicks: 0 } });
    expect(mastoRow.current.likes).toBeGreaterThan(0);
    expect(mastoRow.change.impressions).toBeNull();
  });

  it('composes filters and hides other workspaces', async () => {
    const onlyX = (await call(`/analytics/timeseries?platform=twitter`)).json;
    const byAccount = (await call(`/analytics/timeseries?social_account_id=${accounts.x}&platform=twitter`)).json;
    expect(sum(onlyX.current)).toBe(sum(byAccount.current));
    const none = (await call(`/analytics/timeseries?social_account_id=${accounts.x}&platform=mastodon`)).json;
    expect(unreported(none.current)).toBe(true);
    const masto = (await call(`/analytics/timeseries?platform=mastodon`)).json;
    expect(unreported(masto.current)).toBe(true); // mastodon reports no impressions: null, not 0

    const otherView = (await call('/analytics/timeseries', {}, other)).json;
    expect(unreported(otherView.current)).toBe(true);
    const err = await call(`/analytics/timeseries?social_account_id=${accounts.x}`, {}, other);
    expectError(err, 422, 'INVALID_PARAMETERS');
    expect(err.text).toContain('social_account_id');
  });

  it('answers 422 naming the parameter for bad queries', async () => {
    const cases: Array<[string, string]> = [
      ['start_date=2026-02-30', 'start_date'],
      ['end_date=yesterday', 'end_date'],
      ['start_date=2026-05-10&end_date=2026-05-01', 'end_date'],
      ['start_date=2025-01-01&end_date=2026-03-01', 'end_date'],
      ['platform=myspace', 'platform'],
      ['social_account_id=abc', 'social_account_id'],
      ['social_account_id=99999999', 'social_account_id'],
    ];
    for (const [query, name] of cases) {
      const res = await call(`/analytics/timeseries?${query}`);
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(res.text, query).toContain(name);
    }
    const ok = (await call('/analytics/timeseries?start_date=2026-03-01&end_date=2026-03-31')).json;
    expect(ok.current.map((p: { date: string }) => p.date).slice(0, 2)).toEqual(['2026-03-01', '2026-03-02']);
    expect(ok.comparison[0].date).toBe('2026-01-29');
    expect(ok.comparison.at(-1).date).toBe('2026-02-28');
  });

  it('needs analytics:read', async () => {
    const narrow = await createWorkspace(stack, { scopes: ['posts:read'] });
    const res = await call('/analytics/timeseries', {}, narrow);
    expect(res.status).toBe(403);
  });

  it('best times count each post once in its posting hour', async () => {
    const best = (await call('/analytics/best_times?platform=twitter')).json;
    expect(best.cells).toHaveLength(168);
    expect(best.total_samples).toBe(1);
    const cell = best.cells.find((c: { samples: number }) => c.samples === 1);
    expect(cell.mean_engagement_rate).toBeNull(); // fewer than min_samples
    expect(best.min_samples).toBeGreaterThan(1);
    expect(best).toMatchObject({ start_date: null, end_date: null });
    // A date range counts only the posts published on those days (the workspace's zone).
    const postedOn = ((await call(`/posts/${postId}`)).json.post.posted_at as string).slice(0, 10); // the workspace's zone is UTC
    const ranged = (await call(`/analytics/best_times?platform=twitter&start_date=${postedOn}&end_date=${postedOn}`)).json;
    expect(ranged).toMatchObject({ start_date: postedOn, end_date: postedOn, total_samples: 1 });
    const before = (await call('/analytics/best_times?platform=twitter&start_date=2026-01-01&end_date=2026-01-31')).json;
    expect(before).toMatchObject({ start_date: '2026-01-01', end_date: '2026-01-31', total_samples: 0 });
    const bad = await call('/analytics/best_times?start_date=2026-02-01&end_date=2026-01-01');
    expectError(bad, 422, 'INVALID_PARAMETERS');
    expect(JSON.stringify(bad.json.error.details)).toContain('end_date');
  });

  it('with link shortening off (the default preference), links are published as written and the dub fields stay null', async () => {
    const x = await connect('twitter', 'no_dub_x');
    const id = await publish('Read https://example.com/plain', [x]);
    const [t] = await metricsOf(id, (ts) => ts.every((t) => t.platform_status === 'posted'));
    expect(t).toMatchObject({ dub_short_url: null, dub_original_url: null });
    const tweets = (await sandbox('/_sandbox/posts?platform=twitter')).json.posts as Array<{ text: string }>;
    expect(tweets.at(-1)!.text).toBe('Read https://example.com/plain');
  });
});

describe('fetch failures', () => {
  it('honours a 429 and still records the snapshot', async () => {
    const x = await connect('twitter', 'limited_x');
    await sandbox('/_sandbox/faults', { platform: 'twitter', fault: 'rate_limited', times: 2, on: 'metrics' });
    const id = await publish('rate limited metrics', [x]);
    const [t] = await metricsOf(id, (ts) => ts.every((t) => t.post_metric !== null));
    expect(t!.post_metric!.impressions).toBeGreaterThan(0);
  });

  it('marks the account disconnected when the token expired, and stops fetching', async () => {
    const x = await connect('mastodon', 'expired_metrics_m');
    const id = await publish('token expires later', [x]);
    await metricsOf(id, (ts) => ts.every((t) => t.platform_status === 'posted'));
    await sandbox('/_sandbox/faults', { platform: 'mastodon', fault: 'auth', times: 1, on: 'metrics' });
    await expect
      .poll(async () => ((await call('/social_accounts')).json.social_accounts as Array<{ id: number; disconnected: boolean }>).find((a) => a.id === x)?.disconnected, {
        timeout: 20_000,
        interval: 500,
      })
      .toBe(true);
    const disconnectedBy = Date.now();
    // Fetching stopped: a post published now has its last fetch (15 s after posting) only after every
    // fetch of the earlier post came due; once it is in, the earlier post has no snapshot fetched after
    // the refusal (the sandbox answers its next reads, so a fetch still made would be recorded).
    const control = await connect('twitter', 'after_expiry_x');
    const controlId = await publish('posted after the expiry', [control]);
    await metricsOf(controlId, (ts) => ts.every((t) => t.platform_status === 'posted'));
    const controlPostedAt = Date.parse((await call(`/posts/${controlId}`)).json.post.posted_at);
    await metricsOf(controlId, (ts) => ts.every((t) => Date.parse(t.post_metric?.fetched_at ?? '') - controlPostedAt >= 15_000));
    const last = ((await call(`/posts/${id}`)).json.post.post_accounts[0] as Target).post_metric;
    if (last) expect(Date.parse(last.fetched_at)).toBeLessThan(disconnectedBy);
  });
});

describe('SIGKILL during a fetch wave', () => {
  it('loses no snapshot and counts none twice', async () => {
    const extraAnalytics = await stack.startAnalytics();
    const firstPublisher = stack.processes.find((p) => p.name === 'publisher')!;
    await stack.startPublisher();
    await sandbox('/_sandbox/latency', { ms: 300 }); // keep fetches in flight when the kill lands
    const accounts = await Promise.all([0, 1, 2, 3].map((i) => connect('twitter', `wave_${i}`)));
    const ids = await Promise.all(accounts.map((a, i) => publish(`wave post ${i}`, [a])));
    // As long as the waits below: with the whole suite on two cores, this first wave (two publishers and two
    // analytics replicas starting their consumers, 300 ms per platform call) has taken over 45 s.
    await metricsOf(ids[0]!, (ts) => ts.every((t) => t.post_metric !== null), ws, 90_000);
    await Promise.all([firstPublisher.stop('SIGKILL'), extraAnalytics.stop('SIGKILL')]);
    await stack.startPublisher();
    // Every target reaches its last scheduled fetch (15 s after posting) despite the kills.
    for (const id of ids) {
      const postedAt = Date.parse((await call(`/posts/${id}`)).json.post.posted_at);
      await metricsOf(id, (ts) => ts.every((t) => Date.parse(t.post_metric?.fetched_at ?? '') - postedAt >= 15_000), ws, 90_000);
    }
    await sandbox('/_sandbox/latency', { ms: 0 });
    // A snapshot applied twice would add its growth twice: each account's series equals its latest snapshot.
    for (const [i, account] of accounts.entries()) {
      const latest = ((await call(`/posts/${ids[i]}`)).json.post.post_accounts[0] as Target).post_metric!.impressions;
      await expect.poll(async () => sum((await call(`/analytics/timeseries?social_account_id=${account}`)).json.current), { timeout: 15_000, interval: 500 }).toBe(latest);
    }
  }, 180_000);
});
