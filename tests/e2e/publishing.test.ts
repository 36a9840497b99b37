import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, request, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const sandbox = (path: string, body?: unknown) => request(stack.sandboxUrl!, path, body === undefined ? {} : { body });
const connect = async (username: string) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username, sandbox: true })).socialAccountId;
const sandboxPosts = async (account: string) =>
  ((await sandbox('/_sandbox/posts?platform=twitter')).json.posts as Array<{ account: string; text: string; id: string }>).filter((p) => p.account === account);

async function settled(postId: number, timeout = 20_000) {
  let post: { status: string } & Record<string, unknown> = { status: '' };
  await expect
    .poll(
      async () => {
        post = (await call(`/posts/${postId}`)).json.post;
        return ['posted', 'failed', 'partial'].includes(post.status);
      },
      { timeout, interval: 250 },
    )
    .toBe(true);
  return post as unknown as { status: string; posted_at: string | null; failed_at: string | null; disconnected: boolean; post_error: string | null; post_accounts: Array<Record<string, unknown>> };
}

describe('scheduled posts reach the platform once', () => {
  it('publishes a due post through the scheduler and records the permalink', async () => {
    const x = await connect('sched_user');
    const at = new Date(Date.now() + 1_500).toISOString();
    const created = (await call('/posts', { body: { post: { body: 'scheduled hello', scheduled_at: at, post_accounts: [{ social_account_id: x }] } } })).json.post;
    const post = await settled(created.id);
    const [remote] = await sandboxPosts('sched_user');
    expect(post.status).toBe('posted');
    expect(post.posted_at).not.toBeNull();
    expect(post.post_accounts[0]).toMatchObject({ platform_status: 'posted', platform_post_id: remote?.id, permalink: `https://x.com/sched_user/status/${remote?.id}`, platform_error: null });
    expect(await sandboxPosts('sched_user')).toHaveLength(1);
    // The stand-in's counts (what the bench polls) agree with its posts; other files post beside this one, so the
    // posts read are bracketed by a count read before and one read after.
    const before = (await sandbox('/_sandbox/post_counts')).json.counts.twitter as number;
    const all = (await sandbox('/_sandbox/posts?platform=twitter')).json.posts as unknown[];
    const after = (await sandbox('/_sandbox/post_counts')).json.counts.twitter as number;
    expect(all.length).toBeGreaterThanOrEqual(before);
    expect(all.length).toBeLessThanOrEqual(after);
  });

  it('publishes now with 202, and reconciles a lost answer instead of posting twice', async () => {
    const x = await connect('now_user');
    await sandbox('/_sandbox/faults', { platform: 'twitter', fault: 'drop_after_accept', times: 1, account: 'now_user' });
    const created = (await call('/posts', { body: { post: { body: 'published now', post_accounts: [{ social_account_id: x }] } } })).json.post;
    const accepted = await call(`/posts/${created.id}/publishes`, { method: 'POST', body: {} });
    expect(accepted.status, accepted.text).toBe(202);
    expect(['publishing', 'posted']).toContain(accepted.json.post.status);
    const post = await settled(created.id);
    expect(post.status).toBe('posted');
    expect(await sandboxPosts('now_user')).toHaveLength(1);
  });

  it('retries a transient failure, and marks the account disconnected when the token is refused', async () => {
    const retried = await connect('retry_user');
    await sandbox('/_sandbox/faults', { platform: 'twitter', fault: 'server_error', times: 1, account: 'retry_user' });
    const first = (await call('/posts', { body: { post: { body: 'after a 503', post_accounts: [{ social_account_id: retried }] } } })).json.post;
    await call(`/posts/${first.id}/publishes`, { method: 'POST' });
    expect((await settled(first.id)).status).toBe('posted');
    expect(await sandboxPosts('retry_user')).toHaveLength(1);

    const expired = await connect('expired_user');
    await sandbox('/_sandbox/faults', { platform: 'twitter', fault: 'auth', times: 1, account: 'expired_user' });
    const second = (await call('/posts', { body: { post: { body: 'token expired', post_accounts: [{ social_account_id: expired }] } } })).json.post;
    await call(`/posts/${second.id}/publishes`, { method: 'POST' });
    const failed = await settled(second.id);
    expect(failed).toMatchObject({ status: 'failed', disconnected: true });
    expect(String(failed.post_accounts[0]?.platform_error)).toContain('credentials');
    const accounts = (await call('/social_accounts')).json.social_accounts as Array<{ id: number; disconnected: boolean }>;
    expect(accounts.find((a) => a.id === expired)?.disconnected).toBe(true);
  });

  it('ends partial when some targets fail', async () => {
    const a = await connect('partial_a');
    const b = await connect('partial_b');
    await sandbox('/_sandbox/faults', { platform: 'twitter', fault: 'auth', times: 1, account: 'partial_b' });
    const created = (await call('/posts', { body: { post: { body: 'two targets', post_accounts: [{ social_account_id: a }, { social_account_id: b }] } } })).json.post;
    await call(`/posts/${created.id}/publishes`, { method: 'POST' });
    const post = await settled(created.id);
    expect(post.status).toBe('partial');
    expect(post.post_accounts.map((t) => t.platform_status).sort()).toEqual(['failed', 'posted']);
  });
});

describe('POST /posts/{post_id}/publishes', () => {
  it('schedules into the next slot with 200, and refuses posts that cannot be published', async () => {
    const x = await connect('slot_user');
    const created = (await call('/posts', { body: { post: { body: 'to the next slot', post_accounts: [{ social_account_id: x }] } } })).json.post;
    const slot = (await call(`/posts/next_slot?social_account_id=${x}`)).json.next_slot.scheduled_at;
    const res = await call(`/posts/${created.id}/publishes`, { method: 'POST', body: { to_next_slot: true } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.post).toMatchObject({ status: 'scheduled', scheduled_at: slot });

    const noTargets = (await call('/posts', { body: { post: { body: 'nowhere' } } })).json.post;
    expectError(await call(`/posts/${noTargets.id}/publishes`, { method: 'POST', body: {} }), 422, 'INVALID_PARAMETERS');
    expectError(await call(`/posts/${created.id}/publishes`, { method: 'POST', body: { now: true } }), 422, 'INVALID_PARAMETERS');
    expectError(await call('/posts/999999/publishes', { method: 'POST', body: {} }), 404, 'NOT_FOUND');
  });
});
