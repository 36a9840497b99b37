import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { googleBusiness } from '../../../../tools/sandbox/src/platforms/google-business.js';
import { googleBusinessConnector } from './google-business.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([googleBusiness]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = {
  socialAccountId: 1,
  platform: 'google_business',
  username: 'Acme Bakery',
  credentials: { access_token: 'sandbox-acme', account_id: '111', location_id: '222' },
};
const photo = (name: string, type: MediaItem['type'] = 'image'): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(name), contentType: 'image/jpeg' }),
});
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const connector = () => googleBusinessConnector(`${sandbox.url}/google_business`);

describe('Google Business Profile connector against the v4 localPosts stand-in', () => {
  it('creates a STANDARD local post at the location and answers its resource name and search URL', async () => {
    const result = await connector().publish({ target, parts: [part('Fresh bread every morning')] });
    const [post] = sandbox.state.postsOf('google_business', 'acme');
    expect(post?.text).toBe('Fresh bread every morning');
    expect(post?.details).toMatchObject({ name: `accounts/111/locations/222/localPosts/${post?.id}`, languageCode: 'en', topicType: 'STANDARD', media: [] });
    expect(result).toEqual({ platformPostId: `accounts/111/locations/222/localPosts/${post?.id}`, permalink: `https://local.google.com/place?id=222&use=posts&lpsid=${post?.id}` });
  });

  it('attaches one photo by sourceUrl and uses the account language', async () => {
    await connector().publish({ target: { ...target, credentials: { ...target.credentials, language_code: 'de' } }, parts: [part('Brot', { contentType: 'image', media: [photo('bread.jpg')] })] });
    expect(sandbox.state.postsOf('google_business')[0]?.details).toMatchObject({ languageCode: 'de', media: [{ mediaFormat: 'PHOTO', sourceUrl: 'https://media.example/bread.jpg' }] });
  });

  it('refuses two photos or a video without calling Google', async () => {
    await expect(connector().publish({ target, parts: [part('two', { media: [photo('a.jpg'), photo('b.jpg')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().publish({ target, parts: [part('video', { media: [photo('v.mp4', 'video')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(sandbox.state.postsOf('google_business')).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited, bad token auth, 400 rejected, state REJECTED rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('google_business', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    await expect(connector().publish({ target, parts: [part('x'.repeat(1501))] })).rejects.toMatchObject({ kind: 'rejected', status: 400 });
    const policy = await connector()
      .publish({ target, parts: [part('Call us on +44 20 7946 0958')] })
      .catch((e: unknown) => e);
    expect(policy).toMatchObject({ kind: 'rejected' });
    expect((policy as ConnectorError).message).toMatch(/rejected/);
  });

  it('finds a post whose answer was lost, and not a rejected one or a never-sent one', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('google_business', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(`accounts/111/locations/222/localPosts/${sandbox.state.postsOf('google_business')[0]?.id}`);
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    await connector()
      .publish({ target, parts: [part('Ring 0161 496 0000')] })
      .catch(() => undefined);
    expect(await connector().findPublished({ target, parts: [part('Ring 0161 496 0000')] }, since)).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 45, likes: 0, replies: 0, reposts: 0, clicks: 6 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('google_business')).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
