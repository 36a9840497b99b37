import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClientAddress, type Stack } from '@spa/testing';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function admin(...args: string[]) {
  const res = await stack.admin(args);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

describe('spa-admin (the dashboard stand-in)', () => {
  it('sets up a workspace end to end with the documented commands and JSON output', async () => {
    const ws = await admin('workspace', 'create', '--name', 'Agency', '--tier', 'pro', '--status', 'trialing');
    expect(Object.keys(ws)).toEqual(['workspace_id', 'owner_user_id']);
    const W = String(ws.workspace_id);
    const user = await admin('user', 'create', '--email', `ops-${W}@example.com`);
    expect(Object.keys(user)).toEqual(['user_id']);
    await admin('member', 'add', '--workspace', W, '--user', String(user.user_id));
    const key = await admin('key', 'create', '--workspace', W, '--user', String(user.user_id), '--scopes', 'posts:read,posts:write');
    expect(Object.keys(key)).toEqual(['key_id', 'api_key']);
    const account = await admin('account', 'connect', '--workspace', W, '--platform', 'bluesky', '--username', 'me.bsky.social', '--sandbox');
    expect(Object.keys(account)).toEqual(['social_account_id']);
    const site = await admin('site', 'create', '--workspace', W, '--name', 'Blog', '--url', 'https://blog.example.com');
    expect(Object.keys(site)).toEqual(['site_id', 'token']);
    await admin('subscription', 'set', '--workspace', W, '--tier', 'team', '--status', 'active');
    await admin('workspace', 'set-review', '--workspace', W, '--required', 'true');

    const token = String(key.api_key);
    const created = await stack.api('/posts', { token, localAddress: freshClientAddress(), body: { post: { body: 'via CLI key' } } });
    expect(created.json.post.status).toBe('pending_review');

    const second = await stack.admin(['key', 'create', '--workspace', W, '--scopes', 'all']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('API_KEY_LIMIT_REACHED');
    await admin('key', 'revoke', '--workspace', W);
    await admin('member', 'remove', '--workspace', W, '--user', String(user.user_id));
  });

  it('exits non-zero with a message on bad usage or bad values', async () => {
    const unknown = await stack.admin(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: spa-admin');
    const missing = await stack.admin(['workspace', 'create', '--tier', 'pro']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--name is required');
    const badTier = await stack.admin(['workspace', 'create', '--name', 'X', '--tier', 'gold']);
    expect(badTier.code).toBe(1);
    expect(badTier.stderr).toContain('INVALID_PARAMETERS');
    const badPlatform = await stack.admin(['account', 'connect', '--workspace', '1', '--platform', 'myspace', '--username', 'x']);
    expect(badPlatform.code).toBe(1);
    expect(badPlatform.stdout).toBe('');
  });
});
