import type { Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../domain/api-keys.js';
import { apiKeyUseRecorder, getActiveApiKey, listSites } from '../domain/dashboard-reads.js';
import type { DashboardDeps } from '../domain/dashboard-ports.js';
import { createSite } from '../domain/sites.js';
import { findUserByEmail, listUserWorkspaces, setPassword, verifyPassword } from '../domain/sign-in.js';
import { addMember, createUser } from '../domain/users.js';
import { createWorkspace } from '../domain/workspaces.js';
import { openAccountsStore } from '../../../../tests/support/accounts-store.js';
import { argon2Hasher } from './argon2-hasher.js';
import { MongoDashboardStore } from './dashboard-store.js';

let connection: Connection;
let deps: DashboardDeps;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const opened = await openAccountsStore('t_acc_dash');
  ({ connection, close } = opened);
  deps = { ...opened.deps, dashboard: new MongoDashboardStore(connection, opened.models), passwords: argon2Hasher };
}, 120_000);
afterAll(() => close?.());

describe('sign-in and dashboard reads on the real store', () => {
  it('keeps only an argon2id hash of a password and signs in with it; a wrong password and an unknown email are refused alike', async () => {
    const userId = await createUser(deps, 'Ada@Example.com');
    expect((await findUserByEmail(deps, 'ada@example.com')).hasPassword).toBe(false);
    await expect(verifyPassword(deps, 'ada@example.com', 'correct horse battery')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await setPassword(deps, userId, 'correct horse battery');
    const stored = JSON.stringify(await connection.collection('user_passwords').find().toArray());
    expect(stored).toContain('$argon2id$');
    expect(stored).not.toContain('correct horse battery');
    expect((await verifyPassword(deps, ' ADA@example.com ', 'correct horse battery')).id).toBe(userId);
    const wrong = await verifyPassword(deps, 'ada@example.com', 'wrong horse battery').catch((e: unknown) => e);
    const unknown = await verifyPassword(deps, 'nobody@example.com', 'correct horse battery').catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'UNAUTHORIZED', message: 'Wrong email or password' });
    expect(unknown).toMatchObject({ code: 'UNAUTHORIZED', message: 'Wrong email or password' });
    // A new password replaces the old one.
    await setPassword(deps, userId, 'another long passphrase');
    await expect(verifyPassword(deps, 'ada@example.com', 'correct horse battery')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await verifyPassword(deps, 'ada@example.com', 'another long passphrase')).email).toBe('ada@example.com');
  });

  it('refuses a short password and an unknown user, naming the problem', async () => {
    const userId = await createUser(deps, 'short@example.com');
    await expect(setPassword(deps, userId, 'short')).rejects.toMatchObject({ code: 'INVALID_PARAMETERS', details: ['password must be at least 10 characters'] });
    await expect(setPassword(deps, 9_999_999, 'long enough password')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists the workspaces of a user', async () => {
    const a = await createWorkspace(deps, { name: 'A', tier: 'pro' });
    const b = await createWorkspace(deps, { name: 'B', tier: 'starter' });
    await addMember(deps, b.workspaceId, a.ownerUserId);
    const { user, workspaces } = await listUserWorkspaces(deps, a.ownerUserId);
    expect(user.id).toBe(a.ownerUserId);
    expect(workspaces.map((w) => w.name)).toEqual(['A', 'B']);
  });

  it('shows the active key with its prefix, creator and last use, and nothing once it is revoked', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'K', tier: 'pro' });
    expect(await getActiveApiKey(deps, workspaceId)).toBeNull();
    const { keyId, apiKey } = await createApiKey(deps, { workspaceId, scopes: ['posts:read', 'posts:write'] });
    const view = await getActiveApiKey(deps, workspaceId);
    expect(view).toMatchObject({ key: { id: keyId, prefix: apiKey.slice(0, 12), scopes: ['posts:read', 'posts:write'] }, lastUsedAt: null });
    expect(view?.createdByEmail).toMatch(/@/);
    const record = apiKeyUseRecorder(deps, (err) => {
      throw err;
    });
    record(keyId);
    await expect.poll(async () => (await getActiveApiKey(deps, workspaceId))?.lastUsedAt).toBeInstanceOf(Date);
    await revokeApiKey(deps, workspaceId);
    expect(await getActiveApiKey(deps, workspaceId)).toBeNull();
  });

  it('lists the sites of a workspace only', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'S', tier: 'pro' });
    const other = await createWorkspace(deps, { name: 'T', tier: 'pro' });
    await createSite(deps, { workspaceId, name: 'Blog', url: 'https://blog.example.com', cms: 'ghost' });
    await createSite(deps, { workspaceId: other.workspaceId, name: 'Other', url: 'https://other.example.com' });
    expect((await listSites(deps, workspaceId)).map((s) => [s.name, s.cms])).toEqual([['Blog', 'ghost']]);
    expect((await listSites(deps, other.workspaceId)).map((s) => s.cms)).toEqual(['custom']);
    await expect(createSite(deps, { workspaceId, name: 'X', url: 'https://x.example.com', cms: 'frontpage' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: ['cms must be one of wordpress, ghost, webflow, shopify, squarespace, wix, custom'],
    });
  });
});
