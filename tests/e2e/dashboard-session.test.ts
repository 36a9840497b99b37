import { createWorkspace, type Stack } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dash, inviteUser, signIn } from '../support/dashboard.js';
import { sharedStack } from '../support/shared-stack.js';

/** The dashboard's session surface over HTTP: sign-in, cookie, CSRF, limits, workspaces, sign-out, and its separation from /api/v1. */
let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack();
}, 240_000);
afterAll(() => stack?.stop());

describe('dashboard sessions (real stack)', () => {
  it('signs in with email and password behind an HttpOnly, SameSite=Strict cookie; a wrong password gets the same answer as an unknown email', async () => {
    const ws = await createWorkspace(stack);
    const user = await inviteUser(stack, ws.workspaceId);
    const wrong = await signIn(stack, user.email, 'not the password');
    const unknown = await signIn(stack, 'nobody@example.com', user.password);
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.res.headers['set-cookie']).toBeUndefined();

    const s = await signIn(stack, user.email.toUpperCase(), user.password);
    expect(s.res.status).toBe(201);
    const cookie = s.res.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^spa_dashboard_session=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/dashboard');
    // Plain http on 127.0.0.1: no Secure flag (a browser would drop the cookie); anywhere else it is Secure.
    expect(cookie).not.toContain('Secure');
    expect(s.json).toMatchObject({ user: { email: user.email }, workspace_id: ws.workspaceId, workspaces: [{ id: ws.workspaceId }] });
    expect(s.csrf).toMatch(/^[\w-]{43}$/);

    const me = await dash(stack, s, 'GET', '/session');
    expect(me.status).toBe(200);
    expect(me.json.csrf_token).toBe(s.csrf);
    expect(me.headers['cache-control']).toBe('no-store');

    // Behind a proxy on a real host name, the cookie is Secure.
    const remote = await signIn(stack, user.email, user.password, { headers: { host: 'dashboard.example.com' } });
    expect(remote.res.headers['set-cookie']![0]).toContain('Secure');
  });

  it('refuses every change without the session CSRF token or from another origin, and changes nothing', async () => {
    const ws = await createWorkspace(stack);
    await stack.accounts.revokeApiKey({ workspaceId: ws.workspaceId });
    const user = await inviteUser(stack, ws.workspaceId);
    const s = await signIn(stack, user.email, user.password);
    const noToken = await stack.http('/dashboard/api/api-key', { method: 'POST', body: { scopes: ['posts:read'] }, headers: { cookie: s.cookie } });
    expect(noToken.status).toBe(403);
    expect(noToken.json.error.code).toBe('CSRF_REJECTED');
    const wrongToken = await dash(stack, s, 'POST', '/api-key', { scopes: ['posts:read'] }, { 'x-csrf-token': 'x'.repeat(43) });
    expect(wrongToken.json.error.code).toBe('CSRF_REJECTED');
    const otherOrigin = await dash(stack, s, 'POST', '/api-key', { scopes: ['posts:read'] }, { origin: 'https://evil.example' });
    expect(otherOrigin.json.error.code).toBe('CSRF_REJECTED');
    const form = await dash(stack, s, 'POST', '/api-key', 'scopes=posts:read', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.json.error.code).toBe('CSRF_REJECTED');
    const signOutNoToken = await stack.http('/dashboard/api/session', { method: 'DELETE', headers: { cookie: s.cookie } });
    expect(signOutNoToken.status).toBe(403);
    expect((await dash(stack, s, 'GET', '/api-key')).json.api_key).toBeNull();

    const bad = await dash(stack, s, 'POST', '/api-key', { scopes: ['posts:read', 'nope'] });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('INVALID_PARAMETERS');
    expect(bad.json.error.message).toContain('scopes[1]');

    const ok = await dash(stack, s, 'POST', '/api-key', { scopes: ['posts:read'] }, { origin: stack.baseUrl });
    expect(ok.status).toBe(201);
    expect(ok.json.secret).toMatch(/^sk_live_/);
  });

  it('keeps sessions and API keys apart: /api/v1 refuses a session, the dashboard ignores a bearer key', async () => {
    const ws = await createWorkspace(stack);
    const user = await inviteUser(stack, ws.workspaceId);
    const s = await signIn(stack, user.email, user.password);
    const api = await stack.api('/posts', { headers: { cookie: s.cookie } });
    expect(api.status).toBe(401);
    const withKey = await stack.http('/dashboard/api/api-key', { token: ws.apiKey });
    expect(withKey.status).toBe(401);
    expect(withKey.json.error.code).toBe('UNAUTHORIZED');
  });

  it('switches between the workspaces of a member, refuses others, and stops at a workspace the member left', async () => {
    const a = await createWorkspace(stack);
    const b = await createWorkspace(stack);
    const c = await createWorkspace(stack);
    const user = await inviteUser(stack, a.workspaceId);
    // Inviting an existing user to another workspace keeps their password.
    const again = await stack.admin(['user', 'invite', '--email', user.email, '--workspace', String(b.workspaceId)]);
    expect(JSON.parse(again.stdout)).toMatchObject({ user_id: user.userId, created: false, member: true, password_set: false });
    const s = await signIn(stack, user.email, user.password);
    expect(s.json.workspaces.map((w: { id: number }) => w.id)).toEqual([a.workspaceId, b.workspaceId]);
    const switched = await dash(stack, s, 'PUT', '/session/workspace', { workspace_id: b.workspaceId });
    expect(switched.status).toBe(200);
    expect(switched.json.workspace_id).toBe(b.workspaceId);
    expect((await dash(stack, s, 'GET', '/session')).json.workspace_id).toBe(b.workspaceId);
    const other = await dash(stack, s, 'PUT', '/session/workspace', { workspace_id: c.workspaceId });
    expect(other.status).toBe(403);
    expect(other.json.error.code).toBe('WORKSPACE_FORBIDDEN');
    await stack.accounts.removeMember({ workspaceId: b.workspaceId, userId: user.userId });
    const gone = await dash(stack, s, 'GET', '/api-key');
    expect(gone.status).toBe(403);
    expect(gone.json.error.code).toBe('WORKSPACE_FORBIDDEN');
    expect((await dash(stack, s, 'PUT', '/session/workspace', { workspace_id: a.workspaceId })).status).toBe(200);
    expect((await dash(stack, s, 'GET', '/api-key')).status).toBe(200);
  });

  it('signs out one session, or every session of the user at once', async () => {
    const ws = await createWorkspace(stack);
    const user = await inviteUser(stack, ws.workspaceId);
    const one = await signIn(stack, user.email, user.password);
    const two = await signIn(stack, user.email, user.password);
    const three = await signIn(stack, user.email, user.password);
    const out = await dash(stack, one, 'DELETE', '/session');
    expect(out.status).toBe(200);
    expect(out.headers['set-cookie']![0]).toMatch(/Max-Age=0/);
    expect((await dash(stack, one, 'GET', '/session')).status).toBe(401);
    expect((await dash(stack, two, 'GET', '/session')).status).toBe(200);
    const everywhere = await dash(stack, two, 'POST', '/session/sign-out-everywhere');
    expect(everywhere.json).toEqual({ signed_out: true, sessions_ended: 2 });
    expect((await dash(stack, two, 'GET', '/session')).status).toBe(401);
    expect((await dash(stack, three, 'GET', '/session')).status).toBe(401);
  });

  it('limits sign-in attempts per email and address, with Retry-After', async () => {
    const ws = await createWorkspace(stack);
    const user = await inviteUser(stack, ws.workspaceId);
    const from = { localAddress: '127.0.0.23' };
    for (let i = 0; i < 10; i++) expect((await signIn(stack, user.email, `wrong-${i}`, from)).res.status).toBe(401);
    const limited = await signIn(stack, user.email, user.password, from);
    expect(limited.res.status).toBe(429);
    expect(limited.json.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.res.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await signIn(stack, user.email, user.password, { localAddress: '127.0.0.24' })).res.status).toBe(201);
  });
});
