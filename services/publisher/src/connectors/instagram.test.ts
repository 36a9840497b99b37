// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instagram } from '../../../../tools/sandbox/src/platforms/instagram.js';
import { instagramConnector } from './instagram.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([instagram]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'instagram', username: 'acme', credentials: { access_token: 'sandbox-acme', ig_user_id: '17841400000000001' } };
const media = (type: 'image' | 'video', url: string): MediaItem => ({
  r2Key: `ws/1/${url}`,
  type,
  url: `https://cdn.example/${url}`,
  read: async () => ({ bytes: Buffer.from(url), contentType: 'application/octet-stream' }),
});
const photo = media('image', 'a.jpg');
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'image', position: 0, media: [photo], ...extra });
const connector = (attempts = 3) => instagramConnector(`${sandbox.url}/instagram`, { intervalMs: 1, attempts });
const posts = () => sandbox.state.postsOf('instagram', 'acme');

describe('Instagram connector against the Graph API stand-in', () => {
  it('publishes an image through a container, comments the first comment and later parts, and reads the permalink', async () => {
    const result = await connector().publish({ target, parts: [part('Hello #acme', { firstComment: 'link in bio' }), part('and more', { position: 1, media: [] })] });
    const [post] = posts();
    expect(post?.text).toBe('Hello #acme');
    expect(post?.details).toMatchObject({ owner: '17841400000000001', container: { image_url: 'https://cdn.example/a.jpg', caption: 'Hello #acme' }, comments: ['link in bio', 'and more'] });
    expect(result.platformPostId).toBe(post?.id);
    expect(result.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/);
  });

  it('publishes a video as a Reel after polling its container, and several media as a carousel', async () => {
    await connector().publish({ target, parts: [part('reel', { contentType: 'video', media: [media('video', 'v.mp4')] })] });
    await connector().publish({ target, parts: [part('carousel', { media: [photo, media('video', 'v.mp4'), media('image', 'b.jpg')] })] });
    const [reel, carousel] = posts();
    expect(reel?.details.container).toMatchObject({ media_type: 'REELS', video_url: 'https://cdn.example/v.mp4' });
    expect(carousel?.details.container).toMatchObject({ media_type: 'CAROUSEL', caption: 'carousel' });
    expect(carousel?.details.children).toEqual([
      { image_url: 'https://cdn.example/a.jpg', is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: 'https://cdn.example/v.mp4', is_carousel_item: 'true' },
      { image_url: 'https://cdn.example/b.jpg', is_carousel_item: 'true' },
    ]);
  });

  it('stops polling: a container in ERROR is rejected, one never ready is transient; nothing is published', async () => {
    await expect(connector().publish({ target, parts: [part('bad', { media: [media('image', 'broken.jpg')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector(1).publish({ target, parts: [part('slow', { contentType: 'video', media: [media('video', 'v.mp4')] })] })).rejects.toMatchObject({ kind: 'transient' });
    expect(posts()).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, code 190 auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('instagram', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
      if (kind === 'auth') expect((error as ConnectorError).status).toBe(400);
    }
    expect(posts().map((p) => p.text)).toEqual(['fault drop_after_accept']);
    const rejected = await connector()
      .publish({ target, parts: [part('x'.repeat(2201))] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
    await expect(connector().publish({ target, parts: [part('no media', { contentType: 'text', media: [] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().publish({ target: { ...target, credentials: { access_token: 'sandbox-acme' } }, parts: [part('no account id')] })).rejects.toMatchObject({ kind: 'auth' });
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('instagram', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(posts()[0]?.id);
    expect(found?.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\//);
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first' })] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 321, likes: 21, replies: 1, reposts: 4, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(posts()).toEqual([]);
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
