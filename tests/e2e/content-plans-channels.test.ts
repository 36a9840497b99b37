import { connectMongo, type Connection } from '@spa/mongo';
import { createWorkspace, dropDatabases, freshClientAddress, request, startStack, TEST_INFRA, uniqueName, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';

/**
 * Content plan channels end to end: dry-run plans (their posts publish through every preflight and reach no
 * platform), LinkedIn carousels every n-th post (published as a LinkedIn document post), Pinterest boards, and
 * quote_card channels starting exactly one Quote Week run per plan run, also when the run is resumed.
 */
const generationDb = uniqueName('t_generation_channels');
let stack: Stack;
let db: Connection;

beforeAll(async () => {
  stack = await startStack({ publishing: true, generationEnv: { MONGO_DB: generationDb, PLANS_POLL_INTERVAL_MS: '300', PLANS_RUN_LEASE_MS: '3000' } });
  db = await connectMongo(TEST_INFRA.mongoUrl, generationDb);
}, 300_000);
afterAll(async () => {
  await db?.close();
  await stack?.stop();
  await dropDatabases([generationDb]);
}, 120_000);

const call = (w: TestWorkspace, path: string, opts: HttpOptions = {}) => stack.api(path, { token: w.apiKey, localAddress: freshClientAddress(), ...opts });
const createPlan = (w: TestWorkspace, plan: Record<string, unknown>) =>
  call(w, '/content_plans', { method: 'POST', body: { content_plan: { name: uniqueName('plan'), schedule_day: 1, schedule_time: '09:00', active: false, ...plan } } });

async function connect(w: TestWorkspace, platform: string, username = uniqueName(platform)): Promise<number> {
  const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: w.workspaceId, platform, username, sandbox: true });
  return socialAccountId;
}

/** An account whose posting schedule has one slot a week (so a Quote Week run for it plans one card), or none. */
async function connectWeekly(w: TestWorkspace, platform: string, slots = true): Promise<number> {
  const socialAccountId = await connect(w, platform);
  const { postingSchedule } = await stack.accounts.getPostingSchedule({ workspaceId: w.workspaceId, socialAccountId });
  await stack.accounts.updatePostingSchedule({
    workspaceId: w.workspaceId,
    scheduleId: postingSchedule!.id,
    timezone: 'UTC',
    maxPostsPerDay: 5,
    paused: !slots,
    hasPostingSlots: true,
    postingSlots: [{ dayOfWeek: (new Date().getUTCDay() + 2) % 7, timeOfDay: '10:00', enabled: true }],
  });
  return socialAccountId;
}

async function runPlan(w: TestWorkspace, planId: number, body?: Record<string, unknown>): Promise<Record<string, any>> {
  const started = await call(w, `/content_plans/${planId}/run`, { method: 'POST', ...(body ? { body } : {}) });
  expect(started.status, started.text).toBe(202);
  return waitForRun(w, planId, started.json.run.id);
}

async function waitForRun(w: TestWorkspace, planId: number, runId: string): Promise<Record<string, any>> {
  for (const until = Date.now() + 90_000; ;) {
    const res = await call(w, `/content_plans/${planId}`);
    if (res.status === 200 && res.json.content_plan.last_run?.id === runId && res.json.content_plan.last_run.status !== 'running') return res.json.content_plan.last_run;
    if (Date.now() > until) throw new Error(`run ${runId} not finished: ${res.text}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function planPosts(w: TestWorkspace): Promise<Array<Record<string, any>>> {
  const res = await call(w, '/posts?source=content_plan&status=draft,scheduled,posted,failed,partial&limit=200');
  expect(res.status, res.text).toBe(200);
  return res.json.posts;
}

async function published(w: TestWorkspace, id: number): Promise<Record<string, any>> {
  expect((await call(w, `/posts/${id}/publishes`, { method: 'POST', body: {} })).status).toBe(202);
  let post: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        post = (await call(w, `/posts/${id}`)).json.post;
        return post.status;
      },
      { timeout: 45_000, interval: 300 },
    )
    .toMatch(/^(posted|failed|partial)$/);
  return post;
}

type SandboxRequest = { platform: string; method: string; path: string; creates: boolean; account: string };
const sandboxRequests = async (account: string) => ((await request(stack.sandboxUrl!, '/_sandbox/requests')).json.requests as SandboxRequest[]).filter((r) => r.account === account);
const sandboxPosts = async (account: string) =>
  ((await request(stack.sandboxUrl!, '/_sandbox/posts')).json.posts as Array<{ account: string; platform: string; details: Record<string, any> }>).filter((p) => p.account === account);

const quoteWeekRuns = async (w: TestWorkspace, planId: number): Promise<Array<Record<string, any>>> => {
  const res = await call(w, '/image_week_runs?limit=100');
  expect(res.status, res.text).toBe(200);
  return res.json.image_week_runs.filter((r: { content_plan_id: number | null }) => r.content_plan_id === planId);
};

describe('channel rules', () => {
  it('refuses carousel_every_n off LinkedIn or out of range, a Pinterest channel without board_id, quote_card off Instagram/Pinterest and a Pinterest quote_card plan without a link, naming each field; nothing is stored', async () => {
    const w = await createWorkspace(stack);
    const [x, li, pin, ig] = [await connect(w, 'twitter'), await connect(w, 'linkedin'), await connect(w, 'pinterest'), await connect(w, 'instagram')];
    const before = (await call(w, '/content_plans')).json.meta.total_count;

    const bad = await createPlan(w, {
      channels: [
        { social_account_id: x, carousel_every_n: 2 },
        { social_account_id: pin },
        { social_account_id: li, format: 'quote_card' },
        { social_account_id: ig, format: 'quote_card', watermark_enabled: true },
      ],
    });
    expectError(bad, 422, 'INVALID_PARAMETERS');
    const details: string[] = bad.json.error.details;
    const names = (field: string, text: string) => details.some((d) => d.startsWith(field) && d.includes(text));
    expect(names('content_plan.channels[0].carousel_every_n', 'LinkedIn'), details.join(' | ')).toBe(true);
    expect(names('content_plan.channels[1].board_id', 'required'), details.join(' | ')).toBe(true);
    expect(names('content_plan.channels[2].format', 'quote_card'), details.join(' | ')).toBe(true);
    expect(names('content_plan.channels[3].watermark_text', 'required'), details.join(' | ')).toBe(true);

    const range = await createPlan(w, { channels: [{ social_account_id: li, carousel_every_n: 11 }] });
    expectError(range, 422, 'INVALID_PARAMETERS');
    expect(JSON.stringify(range.json.error.details)).toContain('content_plan.channels[0].carousel_every_n');

    // A board is a Pinterest board id (digits), as a post's metadata.board_id; platform_configs give options as a post's metadata does.
    const badBoard = await createPlan(w, { channels: [{ social_account_id: pin, board_id: 'board-7' }] });
    expectError(badBoard, 422, 'INVALID_PARAMETERS');
    expect(badBoard.json.error.details).toEqual([expect.stringMatching(/^content_plan\.channels\[0\]\.board_id: must be a Pinterest board id/)]);
    const otherPlatform = await createPlan(w, { platform_configs: { twitter: { board_id: '1' } } });
    expectError(otherPlatform, 422, 'INVALID_PARAMETERS');
    expect(otherPlatform.json.error.details).toEqual(['content_plan.platform_configs.twitter.board_id: only pinterest reads board_id; twitter does not']);

    const noLink = await createPlan(w, { channels: [{ social_account_id: pin, format: 'quote_card', board_id: '1003' }] });
    expectError(noLink, 422, 'INVALID_PARAMETERS');
    expect(JSON.stringify(noLink.json.error.details)).toContain('content_plan.platform_configs.pinterest.link');
    expectError(await call(w, '/content_plans/1/run', { method: 'POST', body: { dry_run: 'yes' } }), 422, 'INVALID_PARAMETERS');
    expect((await call(w, '/content_plans')).json.meta.total_count).toBe(before);

    // Valid: the board is stored on the channel; a Pinterest post channel (media-only) yields ideas.
    const ok = await createPlan(w, {
      channels: [
        { social_account_id: pin, board_id: ' 1007 ', angles: ['pins'] },
        { social_account_id: li, carousel_every_n: 3 },
      ],
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json.content_plan.channels.map((c: any) => [c.board_id, c.carousel_every_n])).toEqual([
      ['1007', null],
      [null, 3],
    ]);
    expect(ok.json.content_plan.dry_run).toBe(false);
  });
});

describe('dry-run plans', () => {
  it("a dry-run plan's run writes dry-run posts; publishing them ends posted/dry_run with no platform create", async () => {
    const w = await createWorkspace(stack);
    const username = uniqueName('plan_dry');
    const x = await connect(w, 'twitter', username);
    const created = await createPlan(w, { dry_run: true, channels: [{ social_account_id: x, posts_per_day: 2 }] });
    expect(created.status, created.text).toBe(201);
    expect(created.json.content_plan.dry_run).toBe(true);
    const run = await runPlan(w, created.json.content_plan.id);
    expect(run).toMatchObject({ status: 'completed', posts_created: 2, dry_run: true, image_week_run_ids: [] });

    const posts = await planPosts(w);
    expect(posts).toHaveLength(2);
    for (const p of posts) expect(p.dry_run).toBe(true);
    for (const p of posts) {
      const post = await published(w, p.id);
      expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
      expect(post.post_accounts[0]).toMatchObject({ platform_status: 'dry_run', platform_post_id: null, permalink: null });
    }
    // The credentials were checked (read-only calls), nothing was created.
    const asked = await sandboxRequests(username);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((r) => r.creates || /media|upload|tweets/i.test(r.path))).toEqual([]);
    expect(await sandboxPosts(username)).toEqual([]);
  }, 150_000);

  it('dry_run on POST /content_plans/{id}/run overrides the plan for that run only', async () => {
    const w = await createWorkspace(stack);
    const x = await connect(w, 'twitter');
    const planId = (await createPlan(w, { channels: [{ social_account_id: x }] })).json.content_plan.id;
    expect(await runPlan(w, planId, { dry_run: true })).toMatchObject({ status: 'completed', posts_created: 1, dry_run: true });
    expect(await runPlan(w, planId)).toMatchObject({ status: 'completed', posts_created: 1, dry_run: false });
    const flags = (await planPosts(w)).map((p) => p.dry_run).sort();
    expect(flags).toEqual([false, true]);
    expect((await call(w, `/content_plans/${planId}`)).json.content_plan.dry_run).toBe(false);
  }, 120_000);
});

describe('LinkedIn carousels', () => {
  it('carousel_every_n 2 of 4 posts makes posts 2 and 4 carousels (a PDF document post) that publish to LinkedIn as a document', async () => {
    const w = await createWorkspace(stack);
    const username = uniqueName('plan_li');
    const li = await connect(w, 'linkedin', username);
    const planId = (await createPlan(w, { content_strategy: 'remote team rituals', channels: [{ social_account_id: li, posts_per_day: 4, carousel_every_n: 2 }] })).json.content_plan.id;
    expect(await runPlan(w, planId)).toMatchObject({ status: 'completed', posts_created: 4, items_failed: 0 });

    const posts = await planPosts(w);
    expect(posts).toHaveLength(4);
    const contents = posts.map((p) => p.post_contents.find((c: { platform: string }) => c.platform === 'linkedin'));
    const carousels = posts.filter((_, i) => contents[i]?.content_type === 'document');
    expect(carousels).toHaveLength(2);
    for (const p of posts.filter((post) => !carousels.includes(post))) expect(p.post_contents.filter((c: { content_type: string }) => c.content_type === 'document')).toEqual([]);
    for (const c of carousels) {
      const content = c.post_contents.find((pc: { platform: string }) => pc.platform === 'linkedin');
      expect(content.metadata.media).toEqual([{ r2_key: expect.any(String), type: 'document' }]);
      expect(content.body.trim().length).toBeGreaterThan(0);
    }
    // The post's PDF is a real document of the workspace: publishing uploads it to LinkedIn as a document post.
    const post = await published(w, carousels[0]!.id);
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    const onLinkedIn = await sandboxPosts(username);
    expect(onLinkedIn).toHaveLength(1);
    expect(onLinkedIn[0]!.details.content.media.id).toMatch(/^urn:li:document:/);
  }, 150_000);
});

describe('quote_card channels', () => {
  it('start one Quote Week run per channel (content_plan_id, board and link on Pinterest) that completes; a resumed plan run starts no second one', async () => {
    const w = await createWorkspace(stack, { tier: 'pro' });
    const ig = await connectWeekly(w, 'instagram');
    const pin = await connectWeekly(w, 'pinterest');
    const created = await createPlan(w, {
      content_strategy: 'calm productivity',
      platform_configs: { pinterest: { link: 'https://example.com/calm' } },
      channels: [
        { social_account_id: ig, format: 'quote_card', quote_topic: 'focus', watermark_enabled: true, watermark_text: 'example.com', watermark_every_n: 1 },
        { social_account_id: pin, format: 'quote_card', board_id: '1009' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const planId = created.json.content_plan.id;
    const run = await runPlan(w, planId);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', posts_created: 0, items_failed: 0 });
    expect(run.image_week_run_ids).toHaveLength(2);

    const runs = await quoteWeekRuns(w, planId);
    expect(runs.map((r) => r.id).sort()).toEqual([...run.image_week_run_ids].sort());
    const byPlatform = Object.fromEntries(runs.map((r) => [Object.keys(r.platform_config)[0], r]));
    expect(byPlatform.instagram).toMatchObject({
      topic: 'focus',
      watermark_enabled: true,
      watermark_text: 'example.com',
      watermark_every_n: 1,
      schedule_mode: 'draft',
      dry_run: false,
      cutoff_days: 7,
    });
    expect(byPlatform.pinterest).toMatchObject({ topic: 'calm productivity', platform_config: { pinterest: { social_account_id: pin, board_id: '1009', link: 'https://example.com/calm' } } });

    // Both complete: one card each, posted as a draft of its account; the pin carries the board and link.
    for (const r of runs) {
      let done: Record<string, any> = {};
      await expect
        .poll(
          async () => {
            done = (await call(w, `/image_week_runs/${r.id}`)).json.image_week_run ?? {};
            return done.status;
          },
          { timeout: 180_000, interval: 1_000 },
        )
        .not.toBe('pending');
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(done.total_items).toBe(1);
      const item = done.items[0];
      if (item.status !== 'completed') continue;
      const post = (await call(w, `/posts/${item.post_id}`)).json.post;
      expect(post).toMatchObject({ source: 'quote_week', status: 'draft' });
      if (item.platform === 'pinterest') expect(post.post_contents[0].metadata).toMatchObject({ board_id: '1009', link: 'https://example.com/calm' });
    }

    // A simulated crash between the Quote Week create and its record: the run is running again with its owner's
    // lease over and the record gone. A replica takes it over and starts the channels again with the same key.
    const runId = (await call(w, `/content_plans/${planId}`)).json.content_plan.last_run.id;
    await db.collection('content_plan_run_items').deleteMany({ run_id: runId });
    await db.collection('content_plan_runs').updateOne({ _id: runId } as never, { $set: { status: 'running', lease_until: new Date(Date.now() - 1_000), finished_at: null } });
    const resumed = await waitForRun(w, planId, runId);
    expect(resumed).toMatchObject({ status: 'completed', items_failed: 0 });
    expect([...resumed.image_week_run_ids].sort()).toEqual([...run.image_week_run_ids].sort());
    expect((await quoteWeekRuns(w, planId)).map((r) => r.id).sort()).toEqual([...run.image_week_run_ids].sort());
  }, 300_000);

  it('a used-up monthly Quote Week quota fails that channel with the reason; the rest of the plan still runs', async () => {
    const w = await createWorkspace(stack, { tier: 'starter' });
    // Four runs use the starter month (no free slot: each finishes at once with nothing to render).
    const idle = await connectWeekly(w, 'instagram', false);
    for (let i = 0; i < 4; i++) {
      const res = await call(w, '/image_week_runs', { method: 'POST', body: { topic: 'filler', platform_config: { instagram: { social_account_id: idle } }, cutoff_days: 1 } });
      expect(res.status, res.text).toBe(201);
    }
    const x = await connect(w, 'twitter');
    const planId = (
      await createPlan(w, {
        channels: [
          { social_account_id: idle, format: 'quote_card' },
          { social_account_id: x, posts_per_day: 2 },
        ],
      })
    ).json.content_plan.id;
    const run = await runPlan(w, planId);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'failed', posts_created: 2, items_failed: 1, image_week_run_ids: [] });
    expect(run.error).toMatch(/^channels\[0\]: Quote Week run not started: .*4 Quote Week runs/);
    expect(await quoteWeekRuns(w, planId)).toEqual([]);

    // A dry-run plan run is exempt from the monthly quota: its Quote Week run starts, as a dry run.
    const dry = await runPlan(w, planId, { dry_run: true });
    expect(dry, JSON.stringify(dry)).toMatchObject({ status: 'completed', dry_run: true, items_failed: 0 });
    const [qw] = await quoteWeekRuns(w, planId);
    expect(qw).toMatchObject({ id: dry.image_week_run_ids[0], dry_run: true });
  }, 150_000);
});
