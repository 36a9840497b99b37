import type { Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../domain/authenticate.js';
import { createApiKey, revokeApiKey } from '../domain/api-keys.js';
import type { AccountsDeps } from '../domain/ports.js';
import { createSite } from '../domain/sites.js';
import { createWorkspace } from '../domain/workspaces.js';
import { openAccountsStore } from '../../../../tests/support/accounts-store.js';

let connection: Connection;
let deps: AccountsDeps;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ connection, deps, close } = await openAccountsStore('t_acc'));
});
afterAll(() => close?.());

describe('accounts on the real store', () => {
  it('stores API keys and site tokens only as SHA-256 hashes', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'W', tier: 'pro' });
    const { apiKey } = await createApiKey(deps, { workspaceId, scopes: ['posts:read'] });
    const { token } = await createSite(deps, { workspaceId, name: 'Blog', url: 'https://blog.example.com' });
    const dump = JSON.stringify([await connection.collection('api_keys').find().toArray(), await connection.collection('sites').find().toArray()]);
    expect(dump).not.toContain(apiKey);
    expect(dump).not.toContain(apiKey.slice(8));
    expect(dump).not.toContain(token.slice(8));
    expect((await authenticate(deps, apiKey)).scopes).toEqual(['posts:read']);
    expect((await authenticate(deps, token)).kind).toBe('site_token');
  });

  it('keeps one active key per workspace even when keys are created concurrently', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Race', tier: 'starter' });
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => createApiKey(deps, { workspaceId, scopes: ['all'] })));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(refused.map((r) => (r.reason as { code: string }).code)).toEqual(Array(11).fill('API_KEY_LIMIT_REACHED'));
  });

  it('refuses a revoked key at once when asked directly (the gateway adds at most its cache TTL)', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Revoke', tier: 'team' });
    const { apiKey, keyId } = await createApiKey(deps, { workspaceId, scopes: ['all'] });
    expect(await revokeApiKey(deps, workspaceId)).toBe(keyId);
    await expect(authenticate(deps, apiKey)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(revokeApiKey(deps, workspaceId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
