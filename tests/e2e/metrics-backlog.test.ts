import { readFile } from 'node:fs/promises';
import { connectMongo, type Connection } from '@spa/mongo';
import { createWorkspace, freshClientAddress, request, startStack, TEST_INFRA, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Metric fetches that cannot succeed never starve new ones. A workspace whose published posts vanished on
 * the platforms (the authors deleted them, the platform lost them) and whose Mastodon instance is down has
 * thousands of fetches due at once. Every one of them is tried (with retries holding the consumer's slots, the
 * backlog stalled after as many fetches as the slots), and a post published while the failing ones keep failing
 * and the vanished ones are being recorded gets its first metric on time. The backlog's
 * targets are written straight into the analytics store, as publishing them would have left them (a track
 * each, its first fetch due in the same slot), so the test spends its time on the fetches, not on publishing.
 */
const VANISHED = 5_000;
const FAILING = 500;
/** The stack's schedule fetches 2 s after posting; what "on time" allows on top, on a loaded machine. */
const ON_TIME_MS = 15_000;

let stack: Stack;
let ws: TestWorkspace;
let analytics: Connection;
beforeAll(async () => {
  // More fetches at once than the default 16: the backlog is drained sooner, so the test is shorter.
  stack = await startStack({ publishing: true, publisherEnv: { METRICS_CONCURRENCY: '64' } });
  ws = await createWorkspace(stack);
  // The analytics process's own database, as it was started.
  const environ = await readFile(`/proc/${stack.processes.find((p) => p.name === 'analytics')!.child.pid}/environ`, 'utf8');
  analytics = await connectMongo(
    TEST_INFRA.mongoUrl,
    environ
      .split('\0')
      .find((v) => v.startsWith('MONGO_DB='))!
      .slice('MONGO_DB='.length),
  );
}, 120_000);
afterAll(async () => {
  await analytics?.close();
  await stack?.stop();
});

const call = (path: string, opts: Parameters<Stack['api']>[1] = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const connect = async (platform: string, username: string) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username, sandbox: true })).socialAccountId;

/** Tracks of targets published a moment ago, each with its first fetch due at `due` (the analytics store's own shape). */
function tracks(first: number, count: number, platform: string, socialAccountId: number, due: Date, slotMs: number) {
  return Array.from({ length: count }, (_, i) => ({
    _id: first + i,
    workspace_id: ws.workspaceId,
    post_id: first + i,
    social_account_id: socialAccountId,
    platform,
    platform_post_id: `${first + i}`,
    posted_at: new Date(due.getTime() - 2_000),
    status: 'active',
    status_reason: null,
    last: null,
    counted: null,
    rated: null,
    best_time_rate: null,
    best_time_cell: null,
    schedule: [{ n: 1, due_at: due, slot: Math.floor(due.getTime() / slotMs) }],
    fetch_slots: [Math.floor(due.getTime() / slotMs)],
  }));
}

/** Every platform call the sandbox received for a platform. */
const sandboxCalls = async (platform: string) => (await request(stack.sandboxUrl!, `/_sandbox/requests?platform=${platform}`)).json.requests as Array<{ method: string; path: string }>;

describe('metric fetches under a backlog that cannot succeed', () => {
  it(`a new post's first metric arrives on time behind ${VANISHED} vanished posts and ${FAILING} fetches failing transiently`, async () => {
    const started = Date.now();
    const [x, threads, masto, fresh] = await Promise.all([connect('twitter', 'vanished_x'), connect('threads', 'vanished_threads'), connect('mastodon', 'down_masto'), connect('twitter', 'fresh_x')]);
    // The Mastodon instance answers every read with 503.
    const fault = await request(stack.sandboxUrl!, '/_sandbox/faults', { body: { platform: 'mastodon', fault: 'server_error', times: 1_000_000, on: 'metrics' } });
    expect(fault.status).toBe(204);

    // Due a few seconds from now, once written (the dispatcher walks slots that have not ended yet).
    const due = new Date(Date.now() + 4_000);
    const slotMs = 500;
    const base = 900_000_000 + (ws.workspaceId % 1_000) * 100_000;
    const onX = VANISHED * 0.8;
    await analytics
      .db!.collection('tracks')
      .insertMany([
        ...tracks(base, FAILING, 'mastodon', masto, due, slotMs),
        ...tracks(base + FAILING, onX, 'twitter', x, due, slotMs),
        ...tracks(base + FAILING + onX, VANISHED - onX, 'threads', threads, due, slotMs),
      ] as never[]);
    expect(Date.now()).toBeLessThan(due.getTime());

    // Every fetch of the backlog is tried: each vanished post once, each failing one at least once (then it
    // waits in the retry lane). With retries holding the consumer's slots, this never happened.
    const vanishedReads = async () => (await sandboxCalls('twitter')).filter((r) => r.method === 'GET' && r.path.startsWith(`/twitter/2/tweets/${String(base).slice(0, 3)}`)).length;
    const tried = async () => {
      const [xReads, threadsReads, mastoReads] = await Promise.all([vanishedReads(), sandboxCalls('threads'), sandboxCalls('mastodon')]);
      const failing = new Set(mastoReads.filter((r) => r.method === 'GET' && r.path.includes('/api/v1/statuses/')).map((r) => r.path));
      return xReads + threadsReads.filter((r) => r.path.endsWith('/insights')).length + failing.size;
    };
    await expect.poll(tried, { timeout: 90_000, interval: 2_000 }).toBeGreaterThanOrEqual(VANISHED + FAILING);
    const drained = Date.now();

    // A post published now, while the failing fetches keep failing in the lane and the vanished ones are recorded.
    const created = await call('/posts', { body: { post: { body: 'published into the backlog', post_accounts: [{ social_account_id: fresh }] } } });
    expect(created.status, created.text).toBe(201);
    const postId = created.json.post.id as number;
    const published = await call(`/posts/${postId}/publishes`, { method: 'POST', body: {} });
    expect(published.status, published.text).toBe(202);
    const publishedAt = Date.now();

    type Target = { platform_status: string; post_metric: { fetched_at: string } | null };
    let target: Target | undefined;
    await expect
      .poll(
        async () => {
          target = (await call(`/posts/${postId}`)).json.post.post_accounts[0] as Target;
          return target.post_metric !== null;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    const metricAfter = Date.now() - publishedAt;
    // Its first fetch is due 2 s after posting: fetched and shown on time, not after the backlog.
    expect(metricAfter, `first metric shown ${metricAfter} ms after publishing`).toBeLessThan(2_000 + ON_TIME_MS);

    // Each vanished post was read once and its fetches stopped (gone); none of them is read again.
    const trackColl = analytics.db!.collection('tracks');
    await expect.poll(() => trackColl.countDocuments({ workspace_id: ws.workspaceId, status: 'gone' }), { timeout: 120_000, interval: 1_000 }).toBe(VANISHED);
    const recorded = Date.now();
    expect(await vanishedReads()).toBe(onX);
    console.log(
      `metrics backlog: every fetch tried ${drained - due.getTime()} ms after due; first metric ${metricAfter} ms after publishing; every vanished post recorded gone ${recorded - due.getTime()} ms after due; test ${Date.now() - started} ms`,
    );
  }, 240_000);
});
