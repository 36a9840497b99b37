import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '@spa/nats';
import { createWorkspace, freshClientAddress, startStack, TEST_INFRA, type HttpOptions, type RunningProcess, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openai-stand-in.js';

/**
 * Evergreen posts through the gateway on the real stack and the platform sandbox: a posted evergreen
 * post is recycled once per posting by a posts replica consuming posts.post.terminal, into the
 * account's next free slot after its interval, its text rotating through its variations or written
 * by the generation service (here through a loopback OpenAI-compatible stand-in, slow enough to kill
 * a replica in the middle of a recycle).
 */
const DAY = 86_400_000;
const STAND_IN_DELAY_MS = 2_500;
let standIn: OpenAiStandIn;
let stack: Stack;
let pro: TestWorkspace;
let starter: TestWorkspace;
/** The replica whose recycler runs (the stack's first posts process, which the gateway calls, has it off). */
let recycler: RunningProcess;
const recyclerEnv = { RECYCLE_ACK_WAIT_MS: '4000' };

beforeAll(async () => {
  standIn = await startOpenAiStandIn({ apiKey: 'sk-stand-in', defaultDelayMs: STAND_IN_DELAY_MS });
  stack = await startStack({
    publishing: true,
    postsEnv: { RECYCLER_ENABLED: 'false' },
    generationEnv: { AI_BASE_URL: standIn.baseUrl, AI_API_KEY: 'sk-stand-in', AI_MODELS: 'writer:Writer', AI_TIMEOUT_MS: '8000', AI_FALLBACK_BUILTIN: 'false' },
  });
  recycler = await stack.startPosts(recyclerEnv);
  pro = await createWorkspace(stack, { tier: 'pro' });
  starter = await createWorkspace(stack, { tier: 'starter' });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await standIn?.close();
}, 120_000);

const as =
  (ws: TestWorkspace) =>
  (path: string, opts: HttpOptions = {}) =>
    stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
/**
 * A request of the Pro workspace. Reads are retried while a backend is momentarily unavailable (503:
 * the gateway's 5 s deadline on a loaded machine); writes are not, except a publish (see publish()).
 */
async function call(path: string, opts: HttpOptions = {}) {
  for (let attempt = 1; ; attempt++) {
    const res = await as(pro)(path, opts);
    if (res.status !== 503 || (opts.method ?? 'GET') !== 'GET' || opts.body !== undefined || attempt === 5) return res;
  }
}

type Post = Record<string, any>;

/** Connects a fresh sandbox account (again when a loaded accounts service misses the deadline: a stray extra account is harmless). */
async function account(ws: TestWorkspace, platform = 'mastodon'): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `eg_${Math.random().toString(36).slice(2, 8)}`, sandbox: true });
      return socialAccountId;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Creates an evergreen draft (again after a 503: a stray extra draft is never published, so harmless). */
async function createEvergreen(accountId: number, fields: Record<string, unknown>): Promise<Post> {
  for (let attempt = 1; ; attempt++) {
    const res = await call('/posts', { body: { post: { body: 'The original evergreen text', post_accounts: [{ social_account_id: accountId }], evergreen: true, ...fields } } });
    if (res.status === 503 && attempt < 3) continue;
    expect(res.status, res.text).toBe(201);
    return res.json.post;
  }
}

/** Publishes now and waits for the outcome. */
async function publish(id: number): Promise<Post> {
  for (let attempt = 1; ; attempt++) {
    const res = await call(`/posts/${id}/publishes`, { method: 'POST', body: {} });
    if (res.status === 202) break;
    // A 503 may have landed: publish again only while the post still waits.
    expect(res.status, res.text).toBe(503);
    const status = (await call(`/posts/${id}`)).json.post.status;
    if ((status !== 'draft' && status !== 'scheduled') || attempt === 5) break;
  }
  let post: Post = {};
  await expect
    .poll(
      async () => {
        post = (await call(`/posts/${id}`)).json.post;
        return post.status;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toMatch(/^(posted|failed|partial)$/);
  expect(post.status, JSON.stringify(post)).toBe('posted');
  return post;
}

/** Every post of the series of `originalId` (queue statuses and finished ones). */
async function recycledFrom(originalId: number): Promise<Post[]> {
  const res = await call('/posts?status=draft,pending_review,scheduled,publishing,posted,failed,partial&limit=100');
  expect(res.status, res.text).toBe(200);
  return (res.json.posts as Post[]).filter((p) => p.recycled_from_id === originalId).sort((a, b) => a.id - b.id);
}

async function waitForRecycles(originalId: number, count: number, timeout = 30_000): Promise<Post[]> {
  let posts: Post[] = [];
  await expect
    .poll(
      async () => {
        posts = await recycledFrom(originalId);
        return posts.length;
      },
      { timeout, interval: 250 },
    )
    .toBeGreaterThanOrEqual(count);
  return posts;
}

/** Waits until the recycler has handled every message of its consumer, so an absent recycle means none will come. */
async function recyclerIdle(): Promise<void> {
  const nc = await connectNats(TEST_INFRA.natsUrl, 'evergreen-test');
  try {
    const jsm = await jetstreamManager(nc);
    await expect
      .poll(
        async () => {
          const info = await jsm.consumers.info('POSTS', `posts-recycler-${stack.jobsNamespace}`);
          return info.num_pending + info.num_ack_pending;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(0);
  } finally {
    await nc.drain();
  }
}

describe('recurring posts need Pro or Team', () => {
  it('answers a Starter workspace 403 TIER_UPGRADE_REQUIRED naming the fields, on create, bulk create and update, and stores nothing', async () => {
    const s = as(starter);
    const id = await account(starter);
    const base = { body: 'starter post', post_accounts: [{ social_account_id: id }] };
    for (const [field, value] of [
      ['evergreen', true],
      ['recurrence_jitter_enabled', true],
      ['recurrence_interval_days', 7],
      ['evergreen_variations', ['again']],
    ] as const) {
      const res = await s('/posts', { body: { post: { ...base, [field]: value } } });
      expectError(res, 403, 'TIER_UPGRADE_REQUIRED');
      expect(res.json.error.details).toEqual([field]);
    }
    const bulk = await s('/posts/bulk', { body: { posts: [base, { ...base, evergreen: true }] } });
    expectError(bulk, 403, 'TIER_UPGRADE_REQUIRED');
    expect(bulk.json.error.details).toEqual(['posts[1].evergreen']);
    expect((await s('/posts')).json.meta.total_count).toBe(0);

    // Turning recurrence off is allowed on every plan; turning it on is not.
    const draft = await s('/posts', { body: { post: { ...base, evergreen: false, recurrence_jitter_enabled: false } } });
    expect(draft.status, draft.text).toBe(201);
    const on = await s(`/posts/${draft.json.post.id}`, { method: 'PATCH', body: { post: { evergreen: true } } });
    expectError(on, 403, 'TIER_UPGRADE_REQUIRED');
    expect((await s(`/posts/${draft.json.post.id}`)).json.post.evergreen).toBe(false);
    const off = await s(`/posts/${draft.json.post.id}`, { method: 'PATCH', body: { post: { evergreen: false } } });
    expect(off.status, off.text).toBe(200);
  });

  it('bounds recurrence_interval_days (1 to 365) and rejects empty variations with 422 naming the field', async () => {
    const id = await account(pro);
    const made = await createEvergreen(id, {});
    expect(made).toMatchObject({ evergreen: true, recurrence_interval_days: 30, recurrence_jitter_enabled: false, recycled_from_id: null });
    for (const [field, value] of [
      ['recurrence_interval_days', 0],
      ['recurrence_interval_days', 366],
      ['recurrence_interval_days', 1.5],
      ['recurrence_interval_days', '7'],
      ['evergreen_variations', ['  ']],
      ['evergreen', 'yes'],
    ] as const) {
      const res = await call('/posts', { body: { post: { body: 'bounds', post_accounts: [{ social_account_id: id }], [field]: value } } });
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(JSON.stringify(res.json.error.details)).toContain(field);
      const patched = await call(`/posts/${made.id}`, { method: 'PATCH', body: { post: { [field]: value } } });
      expectError(patched, 422, 'INVALID_PARAMETERS');
    }
    expect((await call(`/posts/${made.id}`)).json.post.recurrence_interval_days).toBe(30);
    const ok = await call(`/posts/${made.id}`, { method: 'PATCH', body: { post: { recurrence_interval_days: 365, recurrence_jitter_enabled: true } } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.post).toMatchObject({ recurrence_interval_days: 365, recurrence_jitter_enabled: true });
  });
});

describe('evergreen recycling', () => {
  it('recycles each posting once into the next free slot after the interval, rotating through the variations, always pointing at the original', async () => {
    const id = await account(pro);
    const original = await createEvergreen(id, { recurrence_interval_days: 2, evergreen_variations: ['Variation A', 'Variation B', 'Variation C', 'Variation D'] });
    const posted = await publish(original.id);
    const [first] = await waitForRecycles(original.id, 1);
    expect(first).toMatchObject({ status: 'scheduled', body: 'Variation A', recycled_from_id: original.id, evergreen: false });
    expect(first!.post_accounts.map((a: Post) => a.social_account_id)).toEqual([id]);
    expect(first!.post_contents[0].body).toBe('Variation A');
    const earliest = Date.parse(posted.posted_at) + 2 * DAY;
    expect(Date.parse(first!.scheduled_at)).toBeGreaterThanOrEqual(earliest);
    // The account's default schedule has slots every day: the recycle takes the first free one after the interval.
    expect(Date.parse(first!.scheduled_at)).toBeLessThan(earliest + DAY);

    await publish(first!.id);
    const series = await waitForRecycles(original.id, 2);
    expect(series.map((p) => p.body)).toEqual(['Variation A', 'Variation B']);
    expect(series[1]!.recycled_from_id).toBe(original.id);
    await recyclerIdle();
    expect((await recycledFrom(original.id)).length).toBe(2);
  });

  it('never repeats one of the last 3 versions: with the variations used up, the generation service writes a fresh one', async () => {
    const id = await account(pro);
    const original = await createEvergreen(id, { recurrence_interval_days: 1, evergreen_variations: ['Only variation'] });
    await publish(original.id);
    const [first] = await waitForRecycles(original.id, 1);
    expect(first!.body).toBe('Only variation');
    const asked = standIn.requests.length;
    await publish(first!.id);
    const series = await waitForRecycles(original.id, 2);
    const fresh = series[1]!.body as string;
    expect(standIn.requests.length).toBeGreaterThan(asked);
    expect(fresh.trim().length).toBeGreaterThan(0);
    expect([original.body, 'Only variation']).not.toContain(fresh);
    await publish(series[1]!.id);
    const third = (await waitForRecycles(original.id, 3))[2]!.body as string;
    expect([original.body, 'Only variation', fresh]).not.toContain(third);
  });

  it('shifts a jittered recurrence within ±25% of the interval (at most ±12 hours) before taking a slot', async () => {
    const id = await account(pro);
    const original = await createEvergreen(id, { recurrence_interval_days: 1, recurrence_jitter_enabled: true, evergreen_variations: ['Jittered A', 'Jittered B', 'Jittered C', 'Jittered D'] });
    const posted = await publish(original.id);
    const [first] = await waitForRecycles(original.id, 1);
    const at = Date.parse(first!.scheduled_at);
    expect(at).toBeGreaterThanOrEqual(Date.parse(posted.posted_at) + DAY - 6 * 3_600_000);
    expect(at).toBeLessThan(Date.parse(posted.posted_at) + 2 * DAY + 6 * 3_600_000);
    expect(first!.recurrence_jitter_enabled).toBe(true);
  });

  it('stops when evergreen is turned off on the original or the original is deleted', async () => {
    const id = await account(pro);
    const variations = ['Stop A', 'Stop B', 'Stop C', 'Stop D'];
    const off = await createEvergreen(id, { recurrence_interval_days: 1, evergreen_variations: variations });
    await publish(off.id);
    const [offFirst] = await waitForRecycles(off.id, 1);
    // A posted original still takes a recurrence-only patch; anything else is refused.
    expectError(await call(`/posts/${off.id}`, { method: 'PATCH', body: { post: { body: 'edited' } } }), 422, 'INVALID_STATE');
    const turnedOff = await call(`/posts/${off.id}`, { method: 'PATCH', body: { post: { evergreen: false } } });
    expect(turnedOff.status, turnedOff.text).toBe(200);
    expect(turnedOff.json.post).toMatchObject({ status: 'posted', evergreen: false });
    await publish(offFirst!.id);

    const gone = await createEvergreen(id, { recurrence_interval_days: 1, evergreen_variations: variations });
    await publish(gone.id);
    const [goneFirst] = await waitForRecycles(gone.id, 1);
    expect((await call(`/posts/${gone.id}`, { method: 'DELETE' })).status).toBe(200);
    await publish(goneFirst!.id);

    await recyclerIdle();
    expect((await recycledFrom(off.id)).length).toBe(1);
    expect((await recycledFrom(gone.id)).length).toBe(1);
  });

  it('stops when a target account is disconnected before the posting is handled', async () => {
    const id = await account(pro);
    const original = await createEvergreen(id, { recurrence_interval_days: 1, evergreen_variations: ['Gone A', 'Gone B', 'Gone C', 'Gone D'] });
    // The posting waits in the durable consumer while no recycler runs; the account is disconnected meanwhile.
    await recycler.stop();
    await publish(original.id);
    await stack.accounts.markDisconnected({ workspaceId: pro.workspaceId, socialAccountId: id });
    recycler = await stack.startPosts(recyclerEnv);
    await recyclerIdle();
    expect(await recycledFrom(original.id)).toEqual([]);
  });

  it('creates exactly one recycled post when the replica recycling is killed (SIGKILL) in the middle, and another takes over', async () => {
    const id = await account(pro);
    // No variations: the recycle waits on the (slow) generation service, which is when the replica dies.
    const original = await createEvergreen(id, { recurrence_interval_days: 3 });
    const asked = standIn.requests.length;
    await publish(original.id);
    await expect.poll(() => standIn.requests.length, { timeout: 30_000, interval: 50 }).toBeGreaterThan(asked);
    await recycler.stop('SIGKILL');
    expect(await recycledFrom(original.id)).toEqual([]);
    // Two replicas race for the redelivered posting.
    const [a, b] = await Promise.all([stack.startPosts(recyclerEnv), stack.startPosts(recyclerEnv)]);
    recycler = a;
    const [recycled] = await waitForRecycles(original.id, 1, 60_000);
    expect(recycled).toMatchObject({ recycled_from_id: original.id, status: 'scheduled' });
    expect(recycled!.body).not.toBe(original.body);
    await recyclerIdle();
    expect((await recycledFrom(original.id)).map((p) => p.id)).toEqual([recycled!.id]);
    await b.stop();
  });
});
