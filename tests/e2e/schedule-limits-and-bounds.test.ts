import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

/** The plan's max_schedule_days on create, update and bulk; every integer query parameter bounded at the edge. */
let stack: Stack;
let starter: TestWorkspace;
let account: number;
beforeAll(async () => {
  stack = await sharedStack();
  starter = await createWorkspace(stack, { tier: 'starter' });
  account = (await stack.accounts.connectSocialAccount({ workspaceId: starter.workspaceId, platform: 'mastodon', username: 'limits_m', sandbox: true })).socialAccountId;
}, 300_000);
afterAll(async () => {
  await stack?.stop();
}, 120_000);

const call = (p: string, opts: HttpOptions = {}, ws = starter) => stack.api(p, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const daysAhead = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const post = (scheduledAt: string) => ({ body: 'planned', scheduled_at: scheduledAt, post_accounts: [{ social_account_id: account }] });

describe('max_schedule_days', () => {
  it('is what the subscription says, and a post further ahead is refused on create, naming scheduled_at', async () => {
    const sub = await call('/billing/subscriptions/current');
    expect(sub.json.max_schedule_days).toBe(30);
    const far = await call('/posts', { body: { post: post(daysAhead(31)) } });
    expectError(far, 422, 'INVALID_PARAMETERS');
    expect(far.json.error.details).toEqual([expect.stringMatching(/^scheduled_at is more than 30 days ahead; the starter plan schedules up to 30 days ahead/)]);
    const near = await call('/posts', { body: { post: post(daysAhead(29)) } });
    expect(near.status, near.text).toBe(201);
  });

  it('on update: moving a post beyond the window is refused and the post is unchanged', async () => {
    const made = (await call('/posts', { body: { post: post(daysAhead(10)) } })).json.post;
    const moved = await call(`/posts/${made.id}`, { method: 'PATCH', body: { post: { scheduled_at: daysAhead(45) } } });
    expectError(moved, 422, 'INVALID_PARAMETERS');
    expect(moved.json.error.message).toContain('scheduled_at');
    expect((await call(`/posts/${made.id}`)).json.post.scheduled_at).toBe(made.scheduled_at);
  });

  it('on bulk: the item beyond the window is named and nothing is stored', async () => {
    const before = (await call('/posts?status=scheduled')).json.meta.total_count;
    const bulk = await call('/posts/bulk', { body: { posts: [post(daysAhead(5)), post(daysAhead(40))] } });
    expectError(bulk, 422, 'INVALID_PARAMETERS');
    expect(bulk.json.error.details).toEqual([expect.stringMatching(/^posts\[1\]: scheduled_at is more than 30 days ahead/)]);
    expect((await call('/posts?status=scheduled')).json.meta.total_count).toBe(before);
  });

  it('a Team workspace schedules a year ahead', async () => {
    const team = await createWorkspace(stack, { tier: 'team' });
    const id = (await stack.accounts.connectSocialAccount({ workspaceId: team.workspaceId, platform: 'mastodon', username: 'limits_t', sandbox: true })).socialAccountId;
    const ok = await call('/posts', { body: { post: { ...post(daysAhead(300)), post_accounts: [{ social_account_id: id }] } } }, team);
    expect(ok.status, ok.text).toBe(201);
  });
});

describe('integer query and path parameters are bounded', () => {
  it('a page size beyond any integer is clamped; an offset beyond 2147483647 is a 422 naming it, never a 500', async () => {
    for (const path of ['/content_ideas', '/posts']) {
      const big = await call(`${path}?limit=2147483648`);
      expect(big.status, `${path}: ${big.text}`).toBe(200);
      expect(big.json.meta.limit).toBe(200);
      const huge = await call(`${path}?limit=99999999999999999999`);
      expectError(huge, 422, 'INVALID_PARAMETERS');
      expect(huge.json.error.details.join(' ')).toContain('limit');
      const offset = await call(`${path}?offset=2147483648`);
      expectError(offset, 422, 'INVALID_PARAMETERS');
      expect(offset.json.error.details).toEqual([expect.stringMatching(/^offset: /)]);
      expect((await call(`${path}?offset=2147483647`)).status).toBe(200);
      for (const bad of ['-1', '1.5', 'abc', '1e400']) expectError(await call(`${path}?offset=${bad}`), 422, 'INVALID_PARAMETERS');
    }
  });

  it('path ids beyond a safe integer are a 422, an unknown in-range id a 404', async () => {
    expectError(await call('/posts/9007199254740993'), 422, 'INVALID_PARAMETERS');
    expectError(await call('/posts/2147483648'), 404, 'NOT_FOUND');
    expectError(await call('/content_plans/99999999999999999999'), 422, 'INVALID_PARAMETERS');
    expectError(await call('/posts/next_slot?social_account_id=99999999999999999999'), 422, 'INVALID_PARAMETERS');
  });
});
