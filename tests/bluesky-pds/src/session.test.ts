import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialRejected, PlatformAuthError } from '../../../services/accounts/src/domain/connect/ports.js';
import { credentialAuth } from '../../../services/accounts/src/platform-auth/credential-auth.js';
import { startLocalPds, type LocalPds } from '../../support/bluesky-pds.js';

/**
 * Bluesky credential entry and session renewal (services/accounts platform-auth) against a real PDS: an app
 * password makes a session, the main password is refused, refreshSession rotates the refresh JWT, a dead
 * refresh JWT is replaced by a new session from the app password, and a revoked app password is invalid_grant.
 */
let pds: LocalPds;
beforeAll(async () => {
  pds = await startLocalPds();
}, 120_000);
afterAll(async () => {
  await pds?.stop();
});

const auth = credentialAuth({});

describe('Bluesky sessions from an app password (real PDS)', () => {
  it('connects, refreshes, falls back to the app password, and reports a revoked app password as invalid_grant', async () => {
    const account = await pds.createAccount('session-user');
    const appPassword = (await pds.xrpc('com.atproto.server.createAppPassword', {}, { body: { name: 'spa' }, token: account.accessJwt })).body.password as string;

    const main = await auth.blueskySession({ pdsUrl: pds.url, identifier: account.handle, appPassword: account.password }).catch((e: unknown) => e);
    expect(main).toBeInstanceOf(CredentialRejected);
    expect((main as CredentialRejected).field).toBe('app_password');

    const { tokens, identity } = await auth.blueskySession({ pdsUrl: pds.url, identifier: account.handle, appPassword });
    expect(identity).toMatchObject({ externalId: account.did, username: account.handle, credentials: { did: account.did, handle: account.handle, pds_url: pds.url } });
    expect(tokens.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    const credentials = { ...identity.credentials, access_token: tokens.accessToken, refresh_token: tokens.refreshToken! };

    // refreshSession: a new pair, whose access JWT the PDS accepts for the account. (Whether the old refresh
    // JWT is refused at once is not checked: the PDS keeps a spent one usable for a 2-hour grace period.)
    const renewed = await auth.refresh('bluesky', credentials);
    expect(renewed.refreshToken).toBeTruthy();
    expect(renewed.refreshToken).not.toBe(credentials.refresh_token);
    const session = await pds.xrpc('com.atproto.server.getSession', {}, { token: renewed.accessToken });
    expect(session.status).toBe(200);
    expect(session.body.did).toBe(account.did);

    // A refresh JWT the PDS no longer knows (its session deleted): the renewal falls back to a new session
    // from the app password. (A spent JWT is not used here: within the PDS's 2-hour grace period a spent
    // refresh JWT may still rotate to the same next pair, so whether it is refused depends on timing.)
    const deleted = await fetch(`${pds.url}/xrpc/com.atproto.server.deleteSession`, { method: 'POST', headers: { authorization: `Bearer ${renewed.refreshToken!}` } });
    expect(deleted.status, await deleted.text()).toBe(200);
    const fallback = await auth.refresh('bluesky', { ...credentials, refresh_token: renewed.refreshToken! });
    expect(fallback.accessToken).toBeTruthy();
    expect(fallback.refreshToken).not.toBe(renewed.refreshToken);

    // The app password revoked at the PDS: the platform's refusal, which disconnects.
    expect((await pds.xrpc('com.atproto.server.revokeAppPassword', {}, { body: { name: 'spa' }, token: account.accessJwt })).status).toBe(200);
    const revoked = await auth.refresh('bluesky', { ...credentials, refresh_token: '' }).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(PlatformAuthError);
    expect((revoked as PlatformAuthError).kind).toBe('invalid_grant');
  });
});
