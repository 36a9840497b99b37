import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, type Stack } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** Every request of this file from its own client address, so the per-IP limit never interferes. */
const call = (path: string, token?: string, method = 'GET') => stack.api(path, { token, method, localAddress: freshClientAddress() });

describe('authentication', () => {
  it('refuses a request without a token, with a malformed header, or with an unknown key', async () => {
    expectError(await call('/posts'), 401, 'UNAUTHORIZED');
    expectError(await stack.api('/posts', { headers: { authorization: 'Basic abc' }, localAddress: freshClientAddress() }), 401, 'UNAUTHORIZED');
    expectError(await call('/posts', 'sk_live_not-a-real-key'), 401, 'UNAUTHORIZED');
    expectError(await call('/posts', 'something-else'), 401, 'UNAUTHORIZED');
  });

  it('accepts a valid key and answers with the list', async () => {
    const ws = await createWorkspace(stack);
    const res = await call('/posts', ws.apiKey);
    expect(res.status).toBe(200);
    expect(res.json.posts).toEqual([]);
  });

  it('answers a free-plan key with 401: the plan has no API access', async () => {
    const ws = await createWorkspace(stack, { tier: 'free' });
    const res = await call('/posts', ws.apiKey);
    expectError(res, 401, 'UNAUTHORIZED');
    expect(res.json.error.message).toMatch(/paid plan/);
  });

  it('answers 401 once the workspace is downgraded to free (within the auth cache TTL)', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    expect((await call('/posts', ws.apiKey)).status).toBe(200);
    await stack.accounts.setSubscription({ workspaceId: ws.workspaceId, tier: 'free' });
    await expect.poll(async () => (await call('/posts', ws.apiKey)).status, { timeout: 5_000, interval: 250 }).toBe(401);
  });

  it('refuses a revoked key within 5 seconds', async () => {
    const ws = await createWorkspace(stack);
    expect((await call('/posts', ws.apiKey)).status).toBe(200);
    const revokedAt = Date.now();
    await stack.accounts.revokeApiKey({ workspaceId: ws.workspaceId });
    await expect.poll(async () => (await call('/posts', ws.apiKey)).status, { timeout: 5_000, interval: 200 }).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
  });

  it('answers WORKSPACE_FORBIDDEN when the key creator leaves the workspace', async () => {
    const ws = await createWorkspace(stack, { scopes: ['posts:read'] });
    await stack.accounts.revokeApiKey({ workspaceId: ws.workspaceId });
    const { userId } = await stack.accounts.createUser({ email: `member-${ws.workspaceId}@example.com` });
    await stack.accounts.addMember({ workspaceId: ws.workspaceId, userId });
    const { apiKey } = await stack.accounts.createApiKey({ workspaceId: ws.workspaceId, userId, scopes: ['posts:read'] });
    expect((await call('/posts', apiKey)).status).toBe(200);
    await stack.accounts.removeMember({ workspaceId: ws.workspaceId, userId });
    await expect.poll(async () => (await call('/posts', apiKey)).json?.error?.code, { timeout: 5_000, interval: 200 }).toBe('WORKSPACE_FORBIDDEN');
    expect((await call('/posts', apiKey)).status).toBe(403);
  });
});

describe('API keys', () => {
  it('allows one active key per workspace: a second is API_KEY_LIMIT_REACHED until the first is revoked', async () => {
    const ws = await createWorkspace(stack);
    await expect(stack.accounts.createApiKey({ workspaceId: ws.workspaceId, scopes: ['all'] })).rejects.toMatchObject({ code: 'API_KEY_LIMIT_REACHED' });
    await stack.accounts.revokeApiKey({ workspaceId: ws.workspaceId });
    const next = await stack.accounts.createApiKey({ workspaceId: ws.workspaceId, scopes: ['posts:read'] });
    expect(next.apiKey).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(next.apiKey).not.toBe(ws.apiKey);
  });

  it('refuses unknown scopes at creation, naming them', async () => {
    const ws = await createWorkspace(stack);
    await stack.accounts.revokeApiKey({ workspaceId: ws.workspaceId });
    await expect(stack.accounts.createApiKey({ workspaceId: ws.workspaceId, scopes: ['posts:read', 'posts:delete'] })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: ['unknown scope: posts:delete'],
    });
  });
});

describe('scopes and plans', () => {
  it('answers INSUFFICIENT_SCOPE naming the missing scope', async () => {
    const ws = await createWorkspace(stack, { scopes: ['posts:read'] });
    expect((await call('/posts', ws.apiKey)).status).toBe(200);
    const res = await stack.api('/posts', { token: ws.apiKey, body: { post: { body: 'x' } }, localAddress: freshClientAddress() });
    expectError(res, 403, 'INSUFFICIENT_SCOPE');
    expect(res.json.error.message).toContain('posts:write');
    expectError(await call('/social_accounts', ws.apiKey), 403, 'INSUFFICIENT_SCOPE');
  });

  it('answers NO_ACTIVE_SUBSCRIPTION for a paid tier whose subscription is not active or trialing', async () => {
    for (const status of ['past_due', 'canceled']) {
      const ws = await createWorkspace(stack, { tier: 'starter', status });
      expectError(await call('/posts', ws.apiKey), 403, 'NO_ACTIVE_SUBSCRIPTION');
    }
    const trialing = await createWorkspace(stack, { tier: 'starter', status: 'trialing' });
    expect((await call('/posts', trialing.apiKey)).status).toBe(200);
  });

  it('answers TIER_UPGRADE_REQUIRED for approval on Starter', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    const res = await call('/posts/1/approve', ws.apiKey, 'POST');
    expectError(res, 403, 'TIER_UPGRADE_REQUIRED');
    expect(res.json.error.message).toMatch(/Pro or Team/);
  });
});

describe('credential kinds', () => {
  it('lets a Site token read only its site status, and refuses API keys there', async () => {
    const ws = await createWorkspace(stack);
    const site = await stack.accounts.createSite({ workspaceId: ws.workspaceId, name: 'Blog', url: 'https://blog.example.com' });
    expect(site.token).toMatch(/^st_live_/);
    const status = await call('/site_pushes/status', site.token);
    expect(status.status).toBe(200);
    expect(status.json).toEqual({
      connection: { name: 'Blog', site_url: 'https://blog.example.com/', cms: 'custom', last_push_at: null, unmatched_pushes: 0 },
      rules: [],
      recent_pushes: [],
    });
    expectError(await call('/posts', site.token), 403, 'ENDPOINT_NOT_AVAILABLE');
    expectError(await call('/site_pushes/status', ws.apiKey), 403, 'ENDPOINT_NOT_AVAILABLE');
  });

  it('answers dashboard-only paths with ENDPOINT_NOT_AVAILABLE for API keys, and 401 without a token', async () => {
    const ws = await createWorkspace(stack);
    for (const [method, path] of [
      ['GET', '/api_keys'],
      ['POST', '/webhooks'],
      ['DELETE', '/webhooks/3'],
      ['POST', '/billing/subscriptions'],
      ['GET', '/me'],
      ['GET', '/account'],
    ] as const) {
      expectError(await call(path, ws.apiKey, method), 403, 'ENDPOINT_NOT_AVAILABLE');
    }
    expectError(await call('/api_keys'), 401, 'UNAUTHORIZED');
  });
});
