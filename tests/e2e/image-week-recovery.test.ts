import {
  createWorkspace,
  dropDatabases,
  freshClientAddress,
  request,
  startStack,
  uniqueName,
  type HttpOptions,
  type HttpResponse,
  type RunningProcess,
  type Stack,
  type TestWorkspace,
} from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';

/**
 * Quote Week under failure: a replica killed with SIGKILL mid-run, and cards that never read back (the test-only
 * template set, on a replica and gateway of their own with their own job namespace and database).
 */
let stack: Stack;
let ws: TestWorkspace;
let failing: { gateway: RunningProcess; imageWeek: RunningProcess };
const failingDb = uniqueName('t_image_week_unreadable');

beforeAll(async () => {
  stack = await startStack();
  ws = await createWorkspace(stack, { tier: 'pro' });
  const imageWeek = await stack.startImageWeek({ IMAGE_WEEK_TEMPLATE_SET: 'test-unreadable', JOBS_NAMESPACE: uniqueName('jobs_unreadable'), MONGO_DB: failingDb });
  const gateway = await stack.startGateway({ IMAGE_WEEK_ADDR: imageWeek.address });
  failing = { gateway, imageWeek };
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await dropDatabases([failingDb]);
});

/** A request to /api/v1 of the gateway at `base` (host:port). */
const api = (base: string, path: string, opts: HttpOptions = {}) => request(`http://${base}`, `/api/v1${path}`, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });

async function connect(platform: string): Promise<number> {
  const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: uniqueName(platform), sandbox: true });
  const { postingSchedule } = await stack.accounts.getPostingSchedule({ workspaceId: ws.workspaceId, socialAccountId });
  await stack.accounts.updatePostingSchedule({
    workspaceId: ws.workspaceId,
    scheduleId: postingSchedule!.id,
    timezone: 'UTC',
    maxPostsPerDay: 5,
    paused: false,
    hasPostingSlots: true,
    postingSlots: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ dayOfWeek: day, timeOfDay: '11:00', enabled: true })),
  });
  return socialAccountId;
}

async function poll(get: () => Promise<HttpResponse>, done: (run: any) => boolean, timeoutMs = 180_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await get();
    // A loaded machine can make one read miss the gateway's 5 s deadline; anything else fails the test.
    if (res.status === 503 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    expect(res.status, res.text).toBe(200);
    if (done(res.json.image_week_run)) return res.json.image_week_run;
    if (Date.now() > until) throw new Error(`condition not reached: ${res.text}`);
    await new Promise((r) => setTimeout(r, 400));
  }
}

describe('Quote Week recovery', () => {
  it('a replica killed with SIGKILL mid-run: the run completes, no item lost, none posted twice', async () => {
    const second = await stack.startImageWeek();
    const instagram = await connect('instagram');
    const pinterest = await connect('pinterest');
    const created = await call('/image_week_runs', {
      method: 'POST',
      body: {
        topic: 'resilience',
        platform_config: { instagram: { social_account_id: instagram }, pinterest: { social_account_id: pinterest, board_id: '1002', link: 'https://example.com' } },
        cutoff_days: 7,
        schedule_mode: 'draft',
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.image_week_run.id;
    // Kill the second replica once work is under way (items are being rendered).
    await poll(
      () => call(`/image_week_runs/${id}`),
      (r) => r.items.some((i: any) => i.status !== 'pending'),
    );
    await second.stop('SIGKILL');
    const run = await poll(
      () => call(`/image_week_runs/${id}`),
      (r) => r.status !== 'pending',
      240_000,
    );
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect(run.total_items).toBe(14);
    expect(run.completed_items + run.failed_items).toBe(14);
    const postIds = run.items.filter((i: any) => i.status === 'completed').map((i: any) => i.post_id);
    expect(postIds.every((p: unknown) => typeof p === 'number')).toBe(true);
    expect(new Set(postIds).size).toBe(postIds.length);
    const posts = await call('/posts?status=draft&limit=200');
    const mine = posts.json.posts.filter((p: any) => p.source === 'quote_week' && p.post_contents[0].metadata.quote_week_run_id === id);
    expect(mine.length).toBe(postIds.length);
  }, 420_000);

  it('a card that never reads back fails after 3 attempts; regenerate resets the attempt count and reruns it', async () => {
    const gw = failing.gateway.address;
    const ig = await connect('instagram');
    const created = await api(gw, '/image_week_runs', { method: 'POST', body: { topic: 'clarity', platform_config: { instagram: { social_account_id: ig } }, cutoff_days: 1, dry_run: true } });
    expect(created.status, created.text).toBe(201);
    expect(created.json.image_week_run.template_version).toBe('test-unreadable');
    const id = created.json.image_week_run.id;
    const run = await poll(
      () => api(gw, `/image_week_runs/${id}`),
      (r) => r.status !== 'pending',
    );
    expect(run.status).toBe('failed');
    expect(run.total_items).toBeGreaterThan(0);
    const n = run.total_items;
    expect(run).toMatchObject({ failed_items: n, completed_items: 0, images_generated: 3 * n, garble_count: 3 * n, retry_count: 2 * n, est_cost_cents: 0 });
    expect(run.error_message).toContain('did not read back');
    const item = run.items[0];
    expect(item).toMatchObject({ status: 'failed', attempt_count: 3, image: null, post_id: null });
    expect(item.last_error).toContain('did not read back');
    const regen = await api(gw, `/image_week_runs/${id}/items/${item.id}/regenerate`, { method: 'POST' });
    expect(regen.status, regen.text).toBe(200);
    expect(regen.json.item).toMatchObject({ id: item.id, status: 'pending', attempt_count: 0, last_error: null });
    expect(regen.json.image_week_run.status).toBe('pending');
    const again = await poll(
      () => api(gw, `/image_week_runs/${id}`),
      (r) => r.status !== 'pending',
    );
    const after = again.items.find((i: any) => i.id === item.id);
    expect(after).toMatchObject({ status: 'failed', attempt_count: 3 });
    expect(after.quote).not.toBe(item.quote);
    expect(again.garble_count).toBe(3 * n + 3);
    expect(again.images_generated).toBe(3 * n + 3);
    // Only failed items: a second regenerate while it runs, or of an unknown item, is refused.
    expectError(await api(gw, `/image_week_runs/${id}/items/999999/regenerate`, { method: 'POST' }), 404, 'NOT_FOUND');
  }, 420_000);
});
