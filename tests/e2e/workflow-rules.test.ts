import { createWorkspace, freshClientAddress, uniqueName, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { dash, inviteUser, signIn } from '../support/dashboard.js';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * Workflows no request can go around, and ones a user must be able to finish: review in a workspace that
 * requires it, the plan's scheduling horizon for a post put into its account's next free slot, deleting a
 * webhook.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await sharedStack();
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (ws: TestWorkspace, path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });

/** A sandbox account whose schedule has one slot a day at 10:00 UTC and takes one post a day. */
async function connect(ws: TestWorkspace): Promise<number> {
  const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: uniqueName('m'), sandbox: true });
  const { postingSchedule } = await stack.accounts.getPostingSchedule({ workspaceId: ws.workspaceId, socialAccountId });
  await stack.accounts.updatePostingSchedule({
    workspaceId: ws.workspaceId,
    scheduleId: postingSchedule!.id,
    timezone: 'UTC',
    maxPostsPerDay: 1,
    paused: false,
    hasPostingSlots: true,
    postingSlots: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, timeOfDay: '10:00', enabled: true })),
  });
  return socialAccountId;
}

describe('review in a workspace that requires it', () => {
  it('a rejected post is neither published nor scheduled into a slot until it is approved again', async () => {
    const ws = await createWorkspace(stack, { tier: 'pro', reviewRequired: true });
    const account = await connect(ws);
    const created = await call(ws, '/posts', { method: 'POST', body: { post: { body: 'launch day', post_accounts: [{ social_account_id: account }] } } });
    expect(created.status, created.text).toBe(201);
    const id = created.json.post.id as number;
    expect(created.json.post.status).toBe('pending_review');
    const rejected = await call(ws, `/posts/${id}/reject`, { method: 'POST', body: { rejection_reason: 'off brand' } });
    expect(rejected.json.post).toMatchObject({ status: 'draft', review_action: 'rejected' });

    for (const body of [{}, { to_next_slot: true }]) {
      const res = await call(ws, `/posts/${id}/publishes`, { method: 'POST', body });
      expectError(res, 422, 'INVALID_STATE');
      expect(res.json.error.message).toMatch(/requires review and it was rejected \(off brand\)/);
    }
    expect((await call(ws, `/posts/${id}`)).json.post).toMatchObject({ status: 'draft', scheduled_at: null, posted_at: null });

    // Edited, it goes back to review; approved, it may be scheduled.
    const edited = await call(ws, `/posts/${id}`, { method: 'PATCH', body: { post: { body: 'launch day, on brand' } } });
    expect(edited.json.post.status, edited.text).toBe('pending_review');
    expect((await call(ws, `/posts/${id}/approve`, { method: 'POST' })).json.post).toMatchObject({ status: 'draft', review_action: 'approved' });
    const scheduled = await call(ws, `/posts/${id}/publishes`, { method: 'POST', body: { to_next_slot: true } });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.json.post.status).toBe('scheduled');
  });

  it('a draft never approved (made before the workspace required review) is not published', async () => {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    const account = await connect(ws);
    const draft = (await call(ws, '/posts', { method: 'POST', body: { post: { body: 'old draft', post_accounts: [{ social_account_id: account }] } } })).json.post;
    expect(draft.status).toBe('draft');
    await stack.accounts.setReviewRequired({ workspaceId: ws.workspaceId, required: true });
    const refused = await call(ws, `/posts/${draft.id}/publishes`, { method: 'POST', body: { to_next_slot: true } });
    expectError(refused, 422, 'INVALID_STATE');
    expect(refused.json.error.message).toMatch(/requires review and it has not been approved/);
    await stack.accounts.setReviewRequired({ workspaceId: ws.workspaceId, required: false });
    const taken = await call(ws, `/posts/${draft.id}/publishes`, { method: 'POST', body: { to_next_slot: true } });
    expect(taken.status, taken.text).toBe(200);
  });
});

describe("the plan's max_schedule_days for a post put into the next free slot", () => {
  it('is refused when the next free slot is further ahead than the plan schedules, and the post is unchanged', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    const account = await connect(ws);
    // Every 10:00 UTC slot within the 30 days a Starter plan schedules ahead is taken, so the next free one is beyond them.
    const now = Date.now();
    const first = new Date(now);
    first.setUTCHours(10, 0, 0, 0);
    if (first.getTime() <= now + 60_000) first.setUTCDate(first.getUTCDate() + 1);
    const slots: string[] = [];
    for (const at = new Date(first); at.getTime() < now + 30 * 86_400_000 - 60_000; at.setUTCDate(at.getUTCDate() + 1)) slots.push(at.toISOString());
    const taken = await call(ws, '/posts/bulk', { method: 'POST', body: { posts: slots.map((s) => ({ body: `taken ${s}`, scheduled_at: s, post_accounts: [{ social_account_id: account }] })) } });
    expect(taken.status, taken.text).toBe(201);
    const draft = (await call(ws, '/posts', { method: 'POST', body: { post: { body: 'one more', post_accounts: [{ social_account_id: account }] } } })).json.post;

    const res = await call(ws, `/posts/${draft.id}/publishes`, { method: 'POST', body: { to_next_slot: true } });
    expectError(res, 422, 'INVALID_STATE');
    expect(res.json.error.message).toMatch(/no free posting slot in the next 30 days \(the starter plan schedules up to 30 days ahead/);
    expect((await call(ws, `/posts/${draft.id}`)).json.post).toMatchObject({ status: 'draft', scheduled_at: null });
  });

  it('takes a free slot within the horizon', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    const account = await connect(ws);
    const draft = (await call(ws, '/posts', { method: 'POST', body: { post: { body: 'soon', post_accounts: [{ social_account_id: account }] } } })).json.post;
    const res = await call(ws, `/posts/${draft.id}/publishes`, { method: 'POST', body: { to_next_slot: true } });
    expect(res.status, res.text).toBe(200);
    expect(new Date(res.json.post.scheduled_at as string).getTime()).toBeLessThanOrEqual(Date.now() + 2 * 86_400_000);
  });
});

describe('deleting a webhook', () => {
  /** A member of a new Pro workspace, signed in to the dashboard's API. */
  async function member() {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    const user = await inviteUser(stack, ws.workspaceId);
    return { ws, user, session: await signIn(stack, user.email, user.password) };
  }

  it('the dashboard deletes one: gone from the list, its place among the 5 free again; a disabled one still counts', async () => {
    const { session } = await member();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await dash(stack, session, 'POST', '/webhooks', { url: `http://127.0.0.1:9/hook${i}` });
      expect(made.status, made.text).toBe(201);
      ids.push(made.json.webhook.id as number);
    }
    expect((await dash(stack, session, 'POST', `/webhooks/${ids[0]}/disable`)).json.webhook.enabled).toBe(false);
    const full = await dash(stack, session, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/sixth' });
    expectError(full, 422, 'INVALID_STATE');
    expect(full.json.error.message).toContain('disabled ones count');

    const deleted = await dash(stack, session, 'DELETE', `/webhooks/${ids[0]}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.deleted).toMatchObject({ id: ids[0], url: 'http://127.0.0.1:9/hook0', enabled: false });
    expect((await dash(stack, session, 'GET', '/webhooks')).json.webhooks.map((w: { id: number }) => w.id)).toEqual(ids.slice(1));
    expectError(await dash(stack, session, 'DELETE', `/webhooks/${ids[0]}`), 404, 'NOT_FOUND');
    expectError(await dash(stack, session, 'GET', `/webhooks/${ids[0]}/deliveries`), 404, 'NOT_FOUND');
    expect((await dash(stack, session, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/sixth' })).status).toBe(201);

    // Another workspace's webhook is not found, and stays.
    const other = await member();
    expectError(await dash(stack, other.session, 'DELETE', `/webhooks/${ids[1]}`), 404, 'NOT_FOUND');
    expect((await dash(stack, session, 'GET', '/webhooks')).json.webhooks.map((w: { id: number }) => w.id)).toContain(ids[1]);
    // An API key cannot: webhook management is dashboard-only.
    expectError(await call(other.ws, `/webhooks/${ids[1]}`, { method: 'DELETE' }), 403, 'ENDPOINT_NOT_AVAILABLE');
  });

  it('the webhooks page deletes one after the user confirms it, and keeps it when they do not', async () => {
    const { user, session } = await member();
    await dash(stack, session, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/keep-or-delete' });
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${stack.baseUrl}/dashboard/`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
      const list = page.getByRole('list', { name: 'Webhooks' });
      const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 250 });
      await poll(() => list.textContent()).toContain('keep-or-delete');
      const asked: string[] = [];

      page.once('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await page.getByRole('button', { name: 'Delete webhook http://127.0.0.1:9/keep-or-delete' }).click();
      await poll(() => asked.length).toBe(1);
      expect(asked[0]).toMatch(/^Delete the webhook http:\/\/127\.0\.0\.1:9\/keep-or-delete\?/);
      expect((await dash(stack, session, 'GET', '/webhooks')).json.webhooks).toHaveLength(1);

      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Delete webhook http://127.0.0.1:9/keep-or-delete' }).click();
      await poll(() => page.getByText('No webhooks yet.').isVisible()).toBe(true);
      expect((await dash(stack, session, 'GET', '/webhooks')).json.webhooks).toEqual([]);
    } finally {
      await browser?.close();
    }
  });
});
