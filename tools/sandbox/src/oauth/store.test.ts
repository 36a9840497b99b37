import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SandboxOAuth } from './store.js';

const challenge = (v: string) => createHash('sha256').update(v).digest('base64url');

describe('sandbox authorization server memory', () => {
  it('redeems a code once, checks client, redirect_uri and the PKCE verifier, and revokes on replay', () => {
    const o = new SandboxOAuth();
    const code = o.issueCode({ platform: 'twitter', account: 'a', clientId: 'c', redirectUri: 'http://cb', challenge: challenge('verifier') });
    expect(o.redeem(code, 'c', 'http://cb', 'wrong')).toMatchObject({ ok: false, reason: expect.stringContaining('code_verifier') });
    const again = o.issueCode({ platform: 'twitter', account: 'a', clientId: 'c', redirectUri: 'http://cb', challenge: challenge('verifier') });
    const ok = o.redeem(again, 'c', 'http://cb', 'verifier');
    expect(ok.ok).toBe(true);
    const token = o.issue('twitter', 'a', 'access', 60, ok.ok ? ok.grant : undefined);
    expect(o.accountOf('twitter', token)).toBe('a');
    expect(o.redeem(again, 'c', 'http://cb', 'verifier')).toMatchObject({ ok: false, reason: 'authorization code already used' });
    expect(o.accountOf('twitter', token)).toBe('expired');
  });

  it('rotating refresh tokens work once; expire() keeps non-expiring page tokens and, on request, the newest', () => {
    const o = new SandboxOAuth();
    const rt = o.issue('x', 'a', 'refresh');
    expect(o.useRefresh('x', rt, true)).toEqual({ account: 'a' });
    expect(o.useRefresh('x', rt, true)).toBeUndefined();
    const page = o.issue('facebook', 'a', 'access');
    const old = o.issue('facebook', 'a', 'access', 60);
    o.expire('facebook');
    expect(o.accountOf('facebook', page)).toBe('a');
    expect(o.accountOf('facebook', old)).toBe('expired');
  });
});
