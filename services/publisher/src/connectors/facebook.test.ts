// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { facebook } from '../../../../tools/sandbox/src/platforms/facebook.js';
import { facebookConnector } from './facebook.js';
import { hostMedia, type MediaHost } from './media-host.test-support.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let host: MediaHost;
beforeAll(async () => {
  sandbox = await startSandbox([facebook]);
  host = await hostMedia({
    'a.jpg': await makeImage({ format: 'jpeg', width: 1200, height: 630 }),
    'b.png': await makeImage({ format: 'png', width: 1080, height: 1080 }),
    'c.gif': await makeImage({ format: 'gif', width: 400, height: 400 }),
    'huge.jpg': await makeImage({ format: 'jpeg', width: 2400, height: 2400, minBytes: 5 * 1024 * 1024 }),
    'photo.avif': await makeImage({ format: 'avif', width: 400, height: 400 }),
    'v.mp4': await makeVideo({ width: 1280, height: 720, seconds: 2 }),
    'v.mov': await makeVideo({ container: 'mov', width: 640, height: 360, seconds: 2 }),
  });
});
afterAll(async () => {
  await sandbox.close();
  await host.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'facebook', username: 'acme', credentials: { access_token: 'sandbox-acme', page_id: '1001' } };
const media = (type: 'image' | 'video', name: string): MediaItem => host.item(name, type);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ConnectorError,
  );
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const connector = () => facebookConnector(`${sandbox.url}/facebook`);
const posts = () => sandbox.state.postsOf('facebook', 'acme');

describe('Facebook Pages connector against the Graph API stand-in', () => {
  it('posts to the page feed, comments the first comment and later parts, and reads the permalink', async () => {
    const result = await connector().publish({ target, parts: [part('Hello page', { firstComment: 'link below' }), part('more', { position: 1 })] });
    const [post] = posts();
    expect(post?.id).toMatch(/^1001_\d+$/);
    expect(post?.text).toBe('Hello page');
    expect(post?.details).toMatchObject({ page: '1001', photos: [], comments: ['link below', 'more'] });
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://www.facebook.com/acme/posts/${post?.id.split('_')[1]}` });
  });

  it('uploads photos unpublished and attaches them all to one post; posts a video with its description; Facebook receives the real files', async () => {
    await connector().publish({ target, parts: [part('three photos', { contentType: 'image', media: [media('image', 'a.jpg'), media('image', 'b.png'), media('image', 'c.gif')] })] });
    const video = await connector().publish({ target, parts: [part('a clip', { contentType: 'video', media: [media('video', 'v.mp4')] })] });
    await connector().publish({ target, parts: [part('a mov', { contentType: 'video', media: [media('video', 'v.mov')] })] });
    const [photos, clip, mov] = posts();
    expect(photos?.details.photos).toEqual([host.url('a.jpg'), host.url('b.png'), host.url('c.gif')]);
    expect(photos?.media.map((m) => [m.content_type, 'width' in m ? m.width : undefined])).toEqual([
      ['image/jpeg', 1200],
      ['image/png', 1080],
      ['image/gif', 400],
    ]);
    expect(clip).toMatchObject({ text: 'a clip', details: { video: host.url('v.mp4') } });
    expect(clip?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 1280, height: 720, video_codec: 'h264' })]);
    expect(mov?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/quicktime' })]);
    expect(video.permalink).toBe(`https://www.facebook.com/acme/videos/${clip?.id}/`);
  });

  it("refuses what Facebook refuses, with Facebook's errors: a photo over 4 MB or of a type it does not take, a video it cannot fetch or read", async () => {
    const cases: Array<[MediaItem, string]> = [
      [media('image', 'huge.jpg'), '"code":100'],
      [media('image', 'photo.avif'), '"code":100'],
      [media('video', 'gone.mp4'), '(#389)'],
      [media('video', 'a.jpg'), '(#352)'],
    ];
    for (const [item, code] of cases) {
      const error = await failure(connector().publish({ target, parts: [part(item.r2Key, { contentType: item.type, media: [item] })] }));
      expect(error, item.r2Key).toMatchObject({ kind: 'rejected', status: 400 });
      expect(error?.message, item.r2Key).toContain(code);
    }
    expect(posts()).toEqual([]);
  });

  it('refuses, without calling Facebook, a video with photos or two videos, which it would otherwise post only partly', async () => {
    for (const items of [
      [media('video', 'v.mp4'), media('image', 'a.jpg')],
      [media('video', 'v.mp4'), media('video', 'v.mov')],
    ]) {
      await expect(connector().publish({ target, parts: [part('mixed', { contentType: 'video', media: items })] })).rejects.toMatchObject({ kind: 'rejected' });
      await expect(connector().preflight!({ target, parts: [part('mixed', { contentType: 'video', media: items })] })).rejects.toMatchObject({ kind: 'rejected' });
    }
    expect(sandbox.state.requests).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, code 190 auth, 400 rejected, dropped answer unknown, code 4 rate limited', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('facebook', fault as never);
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
      .publish({ target, parts: [part('')] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
    await expect(connector().publish({ target: { ...target, credentials: { access_token: 'sandbox-acme' } }, parts: [part('no page')] })).rejects.toMatchObject({ kind: 'auth' });
    const throttled = await connector()
      .publish({ target: { ...target, credentials: { ...target.credentials, access_token: 'sandbox-throttled' } }, parts: [part('too many')] })
      .catch((e: unknown) => e);
    expect(throttled).toMatchObject({ kind: 'rate_limited', status: 400 });
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('facebook', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const id = posts()[0]?.id;
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, since)).toEqual({ platformPostId: id, permalink: `https://www.facebook.com/acme/posts/${id?.split('_')[1]}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first' })] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 900, likes: 17, replies: 1, reposts: 6, clicks: 42 });
    await connector().delete(target, platformPostId);
    expect(posts()).toEqual([]);
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
