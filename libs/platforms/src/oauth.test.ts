import { describe, expect, it } from 'vitest';
import { classifyGrantError, OAUTH_PLATFORMS } from './oauth.js';

describe('OAuth facts table', () => {
  it('has one complete entry per OAuth platform', () => {
    expect(Object.keys(OAUTH_PLATFORMS).sort()).toEqual([
      'discord',
      'facebook',
      'google_business',
      'instagram',
      'linkedin',
      'mastodon',
      'pinterest',
      'slack',
      'threads',
      'tiktok',
      'tumblr',
      'twitter',
      'youtube',
    ]);
    for (const [platform, f] of Object.entries(OAUTH_PLATFORMS)) {
      expect(f!.platform).toBe(platform);
      expect(f!.scopes.length).toBeGreaterThan(0);
      if (!f!.perInstance) for (const url of [f!.authorizeUrl, f!.tokenUrl, f!.revokeUrl].filter(Boolean)) expect(url!.startsWith('https://')).toBe(true);
      if (f!.refresh === 'long_lived_exchange') expect(f!.longLived).toBeDefined();
    }
    expect(OAUTH_PLATFORMS.twitter!.pkce).toBe('S256');
    expect(OAUTH_PLATFORMS.tiktok!.clientIdParam).toBe('client_key');
  });
});

describe("classifyGrantError: only the platform's dead-grant answers disconnect", () => {
  it('RFC 6749 invalid_grant is dead; invalid_request, 5xx-like bodies are transient', () => {
    expect(classifyGrantError('oauth', 400, { error: 'invalid_grant', error_description: 'refresh token revoked' }).kind).toBe('invalid_grant');
    expect(classifyGrantError('oauth', 400, { error: 'invalid_request' }).kind).toBe('transient');
    expect(classifyGrantError('oauth', 403, { error: 'invalid_grant' }).kind).toBe('transient');
  });
  it('Graph: code 190 is dead, checkpoint subcodes say the user must act, rate limits are transient', () => {
    expect(classifyGrantError('meta_graph', 400, { error: { code: 190, error_subcode: 463, message: 'expired' } }).kind).toBe('invalid_grant');
    expect(classifyGrantError('meta_graph', 400, { error: { code: 190, error_subcode: 490, message: 'checkpoint' } }).kind).toBe('checkpoint');
    expect(classifyGrantError('meta_graph', 400, { error: { code: 4, message: 'Application request limit reached' } }).kind).toBe('transient');
  });
  it('Slack: ok:false with invalid_refresh_token is dead, ratelimited is not', () => {
    expect(classifyGrantError('slack', 200, { ok: false, error: 'invalid_refresh_token' }).kind).toBe('invalid_grant');
    expect(classifyGrantError('slack', 200, { ok: false, error: 'account_inactive' }).kind).toBe('checkpoint');
    expect(classifyGrantError('slack', 200, { ok: false, error: 'ratelimited' }).kind).toBe('transient');
  });
});
