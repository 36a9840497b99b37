import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { googleBusiness } from '../../../../tools/sandbox/src/platforms/google-business.js';
import { googleBusinessConnector } from './google-business.js';
import { hostMedia, type MediaHost } from './media-host.test-support.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let host: MediaHost;
beforeAll(async () => {
  sandbox = await startSandbox([googleBusiness]);
  host = await hostMedia({
    'bread.jpg': await makeImage({ format: 'jpeg', width: 800, height: 600 }),
    'shop.png': await makeImage({ format: 'png', width: 400, height: 400, minBytes: 20 * 1024 }),
    'small.jpg': await makeImage({ format: 'jpeg', width: 200, height: 600, minBytes: 20 * 1024 }),
    'tiny.png': await makeImage({ format: 'png', width: 300, height: 300 }),
    'logo.webp': await makeImage({ format: 'webp', width: 400, height: 400, minBytes: 20 * 1024 }),
    'clip.mp4': await makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1 }),
  });
});
afterAll(async () => {
  await sandbox.close();
  await host.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = {
  socialAccountId: 1,
  platform: 'google_business',
  username: 'Acme Bakery',
  credentials: { access_token: 'sandbox-acme', account_id: '111', location_id: '222' },
};
const photo = (name: string, type: MediaItem['type'] = 'image'): MediaItem => host.item(name, type);
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

  it('attaches one photo by sourceUrl and uses the account language; Google fetched and read the photo', async () => {
    await connector().publish({ target: { ...target, credentials: { ...target.credentials, language_code: 'de' } }, parts: [part('Brot', { contentType: 'image', media: [photo('bread.jpg')] })] });
    const [post] = sandbox.state.postsOf('google_business');
    expect(post?.details).toMatchObject({ languageCode: 'de', media: [{ mediaFormat: 'PHOTO', sourceUrl: host.url('bread.jpg') }] });
    expect(post?.media).toMatchObject([{ kind: 'image', content_type: 'image/jpeg', width: 800, height: 600 }]);
    await connector().publish({ target, parts: [part('Shop', { contentType: 'image', media: [photo('shop.png')] })] });
    expect(sandbox.state.postsOf('google_business')[1]?.media).toMatchObject([{ content_type: 'image/png', width: 400, height: 400 }]);
  });

  it("refuses photos Google refuses with its error shape (under 250 px, under 10 KB, WebP, unreachable), classified rejected with Google's reason", async () => {
    const refusal = async (name: string) =>
      (await connector()
        .publish({ target, parts: [part(`with ${name}`, { media: [photo(name)] })] })
        .catch((e: unknown) => e)) as ConnectorError;
    const narrow = await refusal('small.jpg');
    expect(narrow).toMatchObject({ kind: 'rejected', status: 400 });
    expect(narrow.message).toContain('width 200px is below the minimum of 250px');
    expect(narrow.message).toContain('INVALID_ARGUMENT');
    const tiny = await refusal('tiny.png');
    expect(tiny.message).toMatch(/file size \d+ bytes is below the minimum of 10240/);
    expect((await refusal('logo.webp')).message).toContain('unsupported media type image/webp');
    expect((await refusal('missing.jpg')).message).toContain('could not be fetched');
    const raw = await fetch(`${sandbox.url}/google_business/v4/accounts/111/locations/222/localPosts`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-acme', 'content-type': 'application/json' },
      body: JSON.stringify({ languageCode: 'en', summary: 'clip', topicType: 'STANDARD', media: [{ mediaFormat: 'VIDEO', sourceUrl: host.url('clip.mp4') }] }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument. media must be one PHOTO with a sourceUrl.' } });
    expect(sandbox.state.postsOf('google_business')).toEqual([]);
  });

  it('refuses two photos or a video without calling Google', async () => {
    await expect(connector().publish({ target, parts: [part('two', { media: [photo('a.jpg'), photo('b.jpg')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().publish({ target, parts: [part('video', { media: [photo('v.mp4', 'video')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(sandbox.state.postsOf('google_business')).toEqual([]);
  });

  it('refuses in preflight a photo under 10 KB, as the publish would be refused', async () => {
    await expect(connector().preflight!({ target, parts: [part('tiny', { media: [photo('tiny.png')] })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('at least 10 KB'),
    });
    await expect(connector().preflight!({ target, parts: [part('bread', { media: [photo('bread.jpg')] })] })).resolves.toBeUndefined();
  });

  it('refuses in preflight and at publish what a local post cannot carry: a second part, a first comment', async () => {
    for (const parts of [[part('one'), part('two', { position: 1 })], [part('one', { firstComment: 'c' })]]) {
      await expect(connector().preflight!({ target, parts })).rejects.toMatchObject({ kind: 'rejected' });
      await expect(connector().publish({ target, parts })).rejects.toMatchObject({ kind: 'rejected' });
    }
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
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 45, likes: null, replies: null, reposts: null, clicks: 6 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('google_business')).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
