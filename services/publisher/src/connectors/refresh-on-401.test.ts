import { describe, expect, it } from 'vitest';
import { withRefreshOn401 } from './refresh-on-401.js';
import { ConnectorError, type Connector, type PublishRequest } from './types.js';

const request: PublishRequest = {
  target: { socialAccountId: 7, platform: 'twitter', username: 'u', credentials: { access_token: 'old' } },
  parts: [{ body: 'hi', contentType: 'text', position: 0, media: [] }],
};

function connector(): Connector & { tokens: string[] } {
  const tokens: string[] = [];
  return {
    platform: 'twitter',
    tokens,
    publish: async (r) => {
      tokens.push(r.target.credentials.access_token!);
      if (r.target.credentials.access_token !== 'new') throw new ConnectorError('auth', '401 Unauthorized', undefined, 401);
      return { platformPostId: '1', permalink: 'https://x.com/u/status/1' };
    },
    findPublished: async () => null,
    delete: async () => undefined,
    fetchMetrics: async () => ({ impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 }),
    validateCredentials: async () => true,
  };
}

describe('refresh once on a 401', () => {
  it('refreshes with the refused token and publishes with the new one', async () => {
    const c = connector();
    const asked: Array<[number, string]> = [];
    const wrapped = withRefreshOn401({ twitter: c }, async (id, refused) => (asked.push([id, refused]), { credentials: { access_token: 'new' }, disconnected: false, reason: '' }));
    await expect(wrapped.twitter!.publish(request)).resolves.toMatchObject({ platformPostId: '1' });
    expect(asked).toEqual([[7, 'old']]);
    expect(c.tokens).toEqual(['old', 'new']);
  });

  it('a refused refresh is final (auth, with the reason); a refresh that cannot run now is transient', async () => {
    const refused = withRefreshOn401({ twitter: connector() }, async () => ({ disconnected: true, reason: 'twitter no longer accepts this account: reconnect' }));
    await expect(refused.twitter!.publish(request)).rejects.toMatchObject({ kind: 'auth', message: expect.stringContaining('reconnect') });
    const down = withRefreshOn401({ twitter: connector() }, async () => Promise.reject(new Error('accounts unavailable')));
    await expect(down.twitter!.publish(request)).rejects.toMatchObject({ kind: 'transient' });
  });

  it('tries once: a second 401 with the new token is not refreshed again', async () => {
    const c = connector();
    let calls = 0;
    const wrapped = withRefreshOn401({ twitter: c }, async () => (calls++, { credentials: { access_token: 'still-bad' }, disconnected: false, reason: '' }));
    await expect(wrapped.twitter!.publish(request)).rejects.toMatchObject({ kind: 'auth' });
    expect(calls).toBe(1);
  });

  it('the checks before a publish (credentials, preflight) refresh an expired token as the publish does', async () => {
    const c = connector();
    const checked: string[] = [];
    c.validateCredentials = async (t) => {
      checked.push(`credentials ${t.credentials.access_token}`);
      if (t.credentials.access_token !== 'new') throw new ConnectorError('auth', 'invalid_auth');
      return true;
    };
    c.preflight = async (r) => {
      checked.push(`preflight ${r.target.credentials.access_token}`);
      if (r.target.credentials.access_token !== 'new') throw new ConnectorError('auth', 'invalid_auth');
    };
    const wrapped = withRefreshOn401({ twitter: c }, async () => ({ credentials: { access_token: 'new' }, disconnected: false, reason: '' }));
    await expect(wrapped.twitter!.validateCredentials(request.target)).resolves.toBe(true);
    await expect(wrapped.twitter!.preflight!(request)).resolves.toBeUndefined();
    expect(checked).toEqual(['credentials old', 'credentials new', 'preflight old', 'preflight new']);
  });
});
