import { CAPABILITIES, countCharacters } from '@spa/platforms';
import { createWorkspace, dropDatabases, freshClientAddress, startProcess, startStack, uniqueName, type HttpOptions, type RunningProcess, type Stack, type TestWorkspace } from '@spa/testing';
import type { Platform } from '@spa/vocabulary';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';

/** Both generation replicas share this database (the second is started by the replica test). */
const generationDb = uniqueName('t_generation_plans');
const generationEnv = { MONGO_DB: generationDb, PLANS_POLL_INTERVAL_MS: '500', PLANS_RUN_LEASE_MS: '6000' };

let stack: Stack;
let ws: TestWorkspace;
let twitter: number;
let linkedin: number;

beforeAll(async () => {
  stack = await startStack({ generationEnv });
  ws = await createWorkspace(stack);
  twitter = await connect(ws, 'twitter');
  linkedin = await connect(ws, 'linkedin');
  await connect(ws, 'instagram');
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await dropDatabases([generationDb]);
});

const call = (w: TestWorkspace, path: string, opts: HttpOptions = {}) => stack.api(path, { token: w.apiKey, localAddress: freshClientAddress(), ...opts });
const api = (path: string, opts: HttpOptions = {}) => call(ws, path, opts);
async function connect(w: TestWorkspace, platform: string): Promise<number> {
  const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: w.workspaceId, platform, username: `${platform}-${w.workspaceId}`, sandbox: true });
  return socialAccountId;
}
const createPlan = (w: TestWorkspace, plan: Record<string, unknown>) =>
  call(w, '/content_plans', { method: 'POST', body: { content_plan: { name: uniqueName('plan'), schedule_day: 1, schedule_time: '09:00', ...plan } } });

async function waitForRun(w: TestWorkspace, planId: number, runId: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(w, `/content_plans/${planId}`);
    expect(res.status, res.text).toBe(200);
    const plan = res.json.content_plan;
    if (plan.last_run?.id === runId && plan.last_run.status !== 'running') return plan;
    if (Date.now() > until) throw new Error(`run ${runId} not finished: ${res.text}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function planPosts(w: TestWorkspace): Promise<Array<Record<string, any>>> {
  const res = await call(w, '/posts?source=content_plan&status=draft,pending_review,scheduled&limit=200');
  expect(res.status, res.text).toBe(200);
  return res.json.posts;
}

describe('POST /content_plans', () => {
  it('creates a plan: 201, {content_plan} with every field, schedule_day as a day name and a true next_run_at', async () => {
    const res = await createPlan(ws, {
      name: 'Weekly AI tips',
      schedule_day: 3,
      schedule_time: '14:30',
      content_strategy: 'practical AI tips for small teams',
      platform_configs: { twitter: { hashtags: false } },
      channels: [{ social_account_id: twitter, angles: ['myth busting', 'a checklist'], posts_per_day: 2 }],
    });
    expect(res.status, res.text).toBe(201);
    const plan = res.json.content_plan;
    expect(plan).toMatchObject({
      name: 'Weekly AI tips',
      active: true,
      use_sources: false,
      platform_configs: { twitter: { hashtags: false } },
      content_strategy: 'practical AI tips for small teams',
      schedule_day: 'wednesday',
      schedule_time: '14:30',
      schedule_mode: 'draft',
      last_run_at: null,
      last_run: null,
      channels: [
        {
          social_account_id: twitter,
          platform: 'twitter',
          format: 'post',
          board_id: null,
          angles: ['myth busting', 'a checklist'],
          posts_per_day: 2,
          quote_topic: null,
          watermark_enabled: false,
          watermark_text: null,
          watermark_every_n: null,
          carousel_every_n: null,
          active: true,
        },
      ],
    });
    // next_run_at: the next Wednesday 14:30 in the workspace zone, within a week of creation.
    const next = DateTime.fromISO(plan.next_run_at, { zone: plan.timezone });
    expect(next.weekday % 7).toBe(3);
    expect(next.toFormat('HH:mm')).toBe('14:30');
    const created = Date.parse(plan.created_at);
    expect(next.toMillis()).toBeGreaterThan(created - 60_000);
    expect(next.toMillis()).toBeLessThanOrEqual(created + 7 * 86_400_000);

    const got = await api(`/content_plans/${plan.id}`);
    expect(got.status).toBe(200);
    expect(got.json.content_plan).toEqual(plan);
    const list = await api('/content_plans');
    expect(list.status).toBe(200);
    expect(list.json.content_plans.map((p: { id: number }) => p.id)).toContain(plan.id);
    expect(list.json.meta.total_count).toBe(list.json.content_plans.length);
  });

  it('refuses bad fields with 422 naming each one, and stores nothing', async () => {
    const before = (await api('/content_plans')).json.meta.total_count;
    const shape = await createPlan(ws, {
      schedule_day: 7,
      schedule_time: '25:00',
      schedule_mode: 'later',
      channels: [{ social_account_id: twitter, posts_per_day: 11, angles: Array.from({ length: 11 }, (_, i) => `angle ${i}`) }],
    });
    expectError(shape, 422, 'INVALID_PARAMETERS');
    const details: string[] = shape.json.error.details;
    for (const field of ['content_plan.schedule_day', 'content_plan.schedule_time', 'content_plan.schedule_mode', 'content_plan.channels[0].posts_per_day', 'content_plan.channels[0].angles']) {
      expect(
        details.some((d) => d.includes(field)),
        `${field} in ${details.join(' | ')}`,
      ).toBe(true);
    }

    const other = await createWorkspace(stack);
    const foreign = await connect(other, 'twitter');
    const accounts = await createPlan(ws, {
      channels: [{ social_account_id: foreign }, { social_account_id: linkedin, platform: 'twitter' }, { social_account_id: twitter }, { social_account_id: twitter }],
    });
    expectError(accounts, 422, 'INVALID_PARAMETERS');
    const problems: string[] = accounts.json.error.details;
    expect(problems.some((d) => d.startsWith('content_plan.channels[0].social_account_id') && d.includes('not a connected account'))).toBe(true);
    expect(problems.some((d) => d.startsWith('content_plan.channels[1].platform') && d.includes('linkedin account'))).toBe(true);
    expect(problems.some((d) => d.startsWith('content_plan.channels[3].social_account_id') && d.includes('listed twice'))).toBe(true);

    expectError(await api('/content_plans', { method: 'POST', body: { content_plan: { name: 'x', schedule_day: 1, schedule_time: '09:00', owner: 5 } } }), 422, 'INVALID_PARAMETERS');
    expect((await api('/content_plans')).json.meta.total_count).toBe(before);
  });

  it('holds at most 10 plans per user, exactly, under concurrent creates; deleting one frees a slot', async () => {
    const w = await createWorkspace(stack);
    const results = await Promise.all(Array.from({ length: 14 }, () => createPlan(w, {})));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 422, 'PLAN_LIMIT_REACHED');
    expectError(await createPlan(w, {}), 422, 'PLAN_LIMIT_REACHED');

    const victim = created[0]!.json.content_plan.id;
    const deleted = await call(w, `/content_plans/${victim}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.json.content_plan.id).toBe(victim);
    expectError(await call(w, `/content_plans/${victim}`), 404, 'NOT_FOUND');
    expect((await createPlan(w, {})).status).toBe(201);
    expectError(await createPlan(w, {}), 422, 'PLAN_LIMIT_REACHED');
  });

  it("answers another workspace's plan 404 and enforces scopes", async () => {
    const plan = (await createPlan(ws, {})).json.content_plan;
    const other = await createWorkspace(stack);
    expectError(await call(other, `/content_plans/${plan.id}`), 404, 'NOT_FOUND');
    expectError(await call(other, `/content_plans/${plan.id}/run`, { method: 'POST' }), 404, 'NOT_FOUND');
    expectError(await call(other, `/content_plans/${plan.id}`, { method: 'PATCH', body: { content_plan: { name: 'mine' } } }), 404, 'NOT_FOUND');

    const reader = await createWorkspace(stack, { scopes: ['plans:read', 'content_ideas:read'] });
    expectError(await createPlan(reader, {}), 403, 'INSUFFICIENT_SCOPE');
    expect((await call(reader, '/content_plans')).status).toBe(200);
    const writer = await createWorkspace(stack, { scopes: ['plans:write'] });
    expectError(await call(writer, '/content_plans'), 403, 'INSUFFICIENT_SCOPE');
    expectError(await call(writer, '/content_ideas'), 403, 'INSUFFICIENT_SCOPE');
  });

  it('PATCH changes only the given fields and recomputes next_run_at', async () => {
    const plan = (await createPlan(ws, { channels: [{ social_account_id: twitter }] })).json.content_plan;
    const res = await api(`/content_plans/${plan.id}`, { method: 'PATCH', body: { content_plan: { schedule_day: 'friday', schedule_time: '07:15', active: false } } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.content_plan).toMatchObject({ name: plan.name, schedule_day: 'friday', schedule_time: '07:15', active: false, next_run_at: null, channels: plan.channels });
    const on = await api(`/content_plans/${plan.id}`, { method: 'PATCH', body: { content_plan: { active: true } } });
    const next = DateTime.fromISO(on.json.content_plan.next_run_at, { zone: on.json.content_plan.timezone });
    expect([next.weekday % 7, next.toFormat('HH:mm')]).toEqual([5, '07:15']);
    expectError(await api(`/content_plans/${plan.id}`, { method: 'PATCH', body: { content_plan: {} } }), 422, 'INVALID_PARAMETERS');
  });
});

describe('OpenAPI', () => {
  it('documents the plan and idea routes with their scopes, statuses and schemas', async () => {
    const doc = (await api('/openapi.json')).json;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/content_plans', '/content_plans/{id}', '/content_plans/{id}/run', '/content_ideas', '/content_ideas/{id}/use']));
    expect(doc.paths['/content_plans'].post.responses['201']).toBeDefined();
    expect(doc.paths['/content_plans/{id}/run'].post.responses['202']).toBeDefined();
    expect(doc.paths['/content_plans/{id}/run'].post.description).toContain('daily AI-generation quota');
    expect(doc.paths['/content_ideas/{id}/use'].post.description).toContain('Scope: `plans:write`');
    expect(doc.paths['/content_ideas'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'offset', 'platform', 'unused']);
    expect(JSON.stringify(doc.paths['/content_plans/{id}'].get.responses['200'])).toContain('ContentPlan');
  });
});

describe('runs and content ideas', () => {
  it('a manual run writes each active channel its posts as drafts within limits and turns unused angles into ideas', async () => {
    const w = await createWorkspace(stack);
    const x = await connect(w, 'twitter');
    const li = await connect(w, 'linkedin');
    const ig = await connect(w, 'instagram');
    const created = await createPlan(w, {
      name: 'Launch week',
      content_strategy: 'our new open-source scheduling library',
      channels: [
        { social_account_id: x, posts_per_day: 3, angles: ['why it exists', 'a quick start', 'benchmarks', 'roadmap', 'community'] },
        { social_account_id: li, posts_per_day: 2 },
        { social_account_id: ig, angles: ['a screenshot tour', 'before and after'] },
        { social_account_id: await connect(w, 'bluesky'), posts_per_day: 4, active: false },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const planId = created.json.content_plan.id;

    const started = await call(w, `/content_plans/${planId}/run`, { method: 'POST' });
    expect(started.status, started.text).toBe(202);
    expect(started.json.run).toMatchObject({ trigger: 'manual', status: 'running', due_at: null });
    expect(started.json.content_plan.last_run.id).toBe(started.json.run.id);
    const plan = await waitForRun(w, planId, started.json.run.id);
    expect(plan.last_run, JSON.stringify(plan.last_run)).toMatchObject({ status: 'completed', posts_created: 5, ideas_created: 4, items_failed: 0, error: null });
    expect(Date.parse(plan.last_run_at)).toBe(Date.parse(plan.last_run.finished_at));

    const posts = await planPosts(w);
    expect(posts).toHaveLength(5);
    const byAccount = (id: number) => posts.filter((p) => p.post_accounts.some((a: { social_account_id: number }) => a.social_account_id === id));
    expect(byAccount(x)).toHaveLength(3);
    expect(byAccount(li)).toHaveLength(2);
    for (const p of posts) {
      expect(p.status).toBe('draft');
      expect(p.source).toBe('content_plan');
      const platform = p.post_accounts[0].platform as Platform;
      expect(p.body.trim().length).toBeGreaterThan(0);
      expect(countCharacters(platform, p.body)).toBeLessThanOrEqual(CAPABILITIES[platform].character_limit);
    }
    expect(new Set(posts.map((p) => p.body)).size).toBe(5);

    // Ideas: the 2 twitter angles no post used, and both instagram angles (media-only platform: ideas, not posts).
    const ideas = await call(w, '/content_ideas');
    expect(ideas.status, ideas.text).toBe(200);
    expect(ideas.json.meta).toEqual({ limit: 50, offset: 0, total_count: 4 });
    const angles = ideas.json.content_ideas.map((i: { platform: string; angle: string }) => `${i.platform}:${i.angle}`).sort();
    expect(angles).toEqual(['instagram:a screenshot tour', 'instagram:before and after', 'twitter:community', 'twitter:roadmap']);
    const today = DateTime.now().setZone(plan.timezone).toISODate();
    for (const idea of ideas.json.content_ideas) {
      expect(idea).toMatchObject({
        topic: 'our new open-source scheduling library',
        source: 'content_plan',
        source_label: 'Launch week',
        generated_for_date: today,
        used_at: null,
        dismissed_at: null,
        content_plan_id: planId,
        media_type: idea.platform === 'instagram' ? 'image' : 'text',
      });
      expect(idea.prompt).toContain(idea.angle);
    }
    const igOnly = await call(w, '/content_ideas?platform=instagram&limit=1');
    expect(igOnly.json.meta).toEqual({ limit: 1, offset: 0, total_count: 2 });
    expect(igOnly.json.content_ideas).toHaveLength(1);
    expectError(await call(w, '/content_ideas?limit=0'), 422, 'INVALID_PARAMETERS');
    expectError(await call(w, '/content_ideas?platform=myspace'), 422, 'INVALID_PARAMETERS');

    // Using an idea: seed_prompt for generate_from_idea, used_at set once.
    const idea = ideas.json.content_ideas[0];
    const used = await call(w, `/content_ideas/${idea.id}/use`, { method: 'POST' });
    expect(used.status, used.text).toBe(200);
    expect(used.json.seed_prompt).toBe(idea.prompt);
    expect(used.json.content_idea.id).toBe(idea.id);
    expect(used.json.content_idea.used_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    const again = await call(w, `/content_ideas/${idea.id}/use`, { method: 'POST' });
    expect(again.json).toEqual(used.json);
    const unused = await call(w, '/content_ideas?unused=true');
    expect(unused.json.meta.total_count).toBe(3);
    expect(unused.json.content_ideas.map((i: { id: number }) => i.id)).not.toContain(idea.id);
    expectError(await api(`/content_ideas/${idea.id}/use`, { method: 'POST' }), 404, 'NOT_FOUND');
    expectError(await call(w, '/content_ideas/999999999/use', { method: 'POST' }), 404, 'NOT_FOUND');
  }, 90_000);

  it("schedule_mode scheduled puts the posts into the account's next free posting slots", async () => {
    const w = await createWorkspace(stack);
    const x = await connect(w, 'twitter');
    const planId = (await createPlan(w, { schedule_mode: 'scheduled', channels: [{ social_account_id: x, posts_per_day: 3 }] })).json.content_plan.id;
    const started = await call(w, `/content_plans/${planId}/run`, { method: 'POST' });
    expect(started.status, started.text).toBe(202);
    const plan = await waitForRun(w, planId, started.json.run.id);
    expect(plan.last_run).toMatchObject({ status: 'completed', posts_created: 3 });
    const posts = await planPosts(w);
    expect(posts.map((p) => p.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    const times = posts.map((p) => p.scheduled_at as string).sort();
    expect(new Set(times).size).toBe(3);
    // The default schedule: 09:00, 13:00 and 17:00 UTC.
    for (const t of times) expect(['09:00', '13:00', '17:00']).toContain(DateTime.fromISO(t, { zone: 'UTC' }).toFormat('HH:mm'));
    for (const t of times) expect(Date.parse(t)).toBeGreaterThan(Date.now());
  }, 90_000);

  it('a plan due now runs exactly once with two generation replicas, then waits a week', async () => {
    let replica: RunningProcess | undefined;
    try {
      replica = await startProcess('generation-2', 'services/generation/dist/main.js', {
        MONGO_URL: 'mongodb://127.0.0.1:27017',
        NATS_URL: 'nats://127.0.0.1:4222',
        GRPC_PORT: '0',
        ACCOUNTS_ADDR: stack.accountsAddr,
        POSTS_ADDR: stack.postsAddr,
        MEDIA_ADDR: stack.mediaAddr,
        IMAGE_WEEK_ADDR: stack.imageWeekAddr,
        ...generationEnv,
      });
      const w = await createWorkspace(stack);
      const x = await connect(w, 'twitter');
      const li = await connect(w, 'linkedin');
      const plan = (
        await createPlan(w, {
          active: false,
          channels: [
            { social_account_id: x, posts_per_day: 3 },
            { social_account_id: li, posts_per_day: 2, angles: ['a', 'b', 'c'] },
          ],
        })
      ).json.content_plan;
      // Leave room to finish the edit inside the current minute.
      while (new Date().getUTCSeconds() > 45) await new Promise((r) => setTimeout(r, 1000));
      const now = DateTime.now().setZone(plan.timezone);
      const patched = await call(w, `/content_plans/${plan.id}`, { method: 'PATCH', body: { content_plan: { active: true, schedule_day: now.weekday % 7, schedule_time: now.toFormat('HH:mm') } } });
      expect(patched.status, patched.text).toBe(200);
      const due = patched.json.content_plan.next_run_at;
      expect(Date.parse(due)).toBe(now.startOf('minute').toMillis());

      const runId = `${plan.id}:${new Date(due).toISOString()}`;
      const finished = await waitForRun(w, plan.id, runId);
      expect(finished.last_run).toMatchObject({ trigger: 'scheduled', status: 'completed', due_at: new Date(due).toISOString(), posts_created: 5, ideas_created: 1 });
      expect(Date.parse(finished.next_run_at)).toBe(Date.parse(due) + 7 * 86_400_000);
      expect(Date.parse(finished.last_run_at)).toBeGreaterThanOrEqual(Date.parse(due));
      // Several more scheduler ticks of both replicas: nothing runs again.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(await planPosts(w)).toHaveLength(5);
      expect((await call(w, '/content_ideas')).json.meta.total_count).toBe(1);
      const after = (await call(w, `/content_plans/${plan.id}`)).json.content_plan;
      expect(after.last_run.id).toBe(runId);
      expect(after.last_run_at).toBe(finished.last_run_at);
    } finally {
      await replica?.stop();
    }
  }, 120_000);
});
