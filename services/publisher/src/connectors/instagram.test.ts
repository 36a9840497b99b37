// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { containersOf } from '../../../../tools/sandbox/src/platforms/meta-graph.js';
import { instagram, instagramContainerInfo } from '../../../../tools/sandbox/src/platforms/instagram.js';
import { instagramConnector } from './instagram.js';
import { hostMedia, type MediaHost } from './media-host.test-support.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let host: MediaHost;
beforeAll(async () => {
  sandbox = await startSandbox([instagram]);
  host = await hostMedia({
    'a.jpg': await makeImage({ format: 'jpeg', width: 1080, height: 1080 }),
    'b.jpg': await makeImage({ format: 'jpeg', width: 1080, height: 1350 }),
    'wide.jpg': await makeImage({ format: 'jpeg', width: 1200, height: 400 }),
    'card.png': await makeImage({ format: 'png', width: 1080, height: 1080 }),
    'huge.jpg': await makeImage({ format: 'jpeg', width: 3000, height: 3000, minBytes: 9 * 1024 * 1024 }),
    'v.mp4': await makeVideo({ width: 720, height: 1280, seconds: 3 }),
    'short.mp4': await makeVideo({ width: 720, height: 1280, seconds: 1 }),
    'v.webm': await makeVideo({ container: 'webm', width: 720, height: 1280, seconds: 3 }),
  });
});
afterAll(async () => {
  await sandbox.close();
  await host.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'instagram', username: 'acme', credentials: { access_token: 'sandbox-acme', ig_user_id: '17841400000000001' } };
const media = (type: 'image' | 'video', name: string): MediaItem => host.item(name, type);
const photo = () => media('image', 'a.jpg');
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'image', position: 0, media: [photo()], ...extra });
const connector = (attempts = 3) => instagramConnector(`${sandbox.url}/instagram`, { intervalMs: 1, attempts });
const posts = () => sandbox.state.postsOf('instagram', 'acme');
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ConnectorError,
  );
const graph = async (path: string, params: Record<string, string>, method = 'POST') => {
  const query = new URLSearchParams({ access_token: 'sandbox-acme', ...params });
  const answer = await fetch(`${sandbox.url}/instagram/${path}?${query}`, { method });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> & { error?: Record<string, unknown> } };
};

describe('Instagram connector against the strict Graph API stand-in', () => {
  it('publishes a JPEG through a container, comments the first comment and later parts, and reads the permalink', async () => {
    const result = await connector().publish({ target, parts: [part('Hello #acme', { firstComment: 'link in bio' }), part('and more', { position: 1, media: [] })] });
    const [post] = posts();
    expect(post?.text).toBe('Hello #acme');
    expect(post?.details).toMatchObject({ owner: '17841400000000001', container: { image_url: host.url('a.jpg'), caption: 'Hello #acme' }, comments: ['link in bio', 'and more'] });
    expect(post?.media).toEqual([expect.objectContaining({ kind: 'image', content_type: 'image/jpeg', width: 1080, height: 1080 })]);
    expect(result.platformPostId).toBe(post?.id);
    expect(result.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/);
  });

  it('publishes a video as a Reel after polling its container, and several media as a carousel carrying every item', async () => {
    await connector().publish({ target, parts: [part('reel', { contentType: 'video', media: [media('video', 'v.mp4')] })] });
    await connector().publish({ target, parts: [part('carousel', { media: [photo(), media('video', 'v.mp4'), media('image', 'b.jpg')] })] });
    const [reel, carousel] = posts();
    expect(reel?.details.container).toMatchObject({ media_type: 'REELS', video_url: host.url('v.mp4') });
    expect(reel?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 720, height: 1280, video_codec: 'h264', audio_codec: 'aac' })]);
    expect(carousel?.details.container).toMatchObject({ media_type: 'CAROUSEL', caption: 'carousel' });
    expect(carousel?.details.children).toEqual([
      { image_url: host.url('a.jpg'), is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: host.url('v.mp4'), is_carousel_item: 'true' },
      { image_url: host.url('b.jpg'), is_carousel_item: 'true' },
    ]);
    expect(carousel?.media.map((m) => [m.kind, m.content_type])).toEqual([
      ['image', 'image/jpeg'],
      ['video', 'video/mp4'],
      ['image', 'image/jpeg'],
    ]);
  });

  it("refuses an image Instagram refuses, at container creation, with Instagram's error: a PNG card, an aspect ratio outside 4:5–1.91:1, over 8 MB, an unreachable URL", async () => {
    const cases: Array<[string, number, number]> = [
      ['card.png', 9004, 2207005],
      ['wide.jpg', 36003, 2207009],
      ['huge.jpg', 36001, 2207004],
      ['gone.jpg', 9004, 2207052],
    ];
    for (const [name, code, subcode] of cases) {
      const error = await failure(connector().publish({ target, parts: [part(name, { media: [media('image', name)] })] }));
      expect(error, name).toMatchObject({ kind: 'rejected', status: 400 });
      expect(error?.message, name).toContain(`"code":${code}`);
      const direct = await graph('17841400000000001/media', { image_url: host.url(name) });
      expect(direct.body.error, name).toMatchObject({ type: 'OAuthException', code, error_subcode: subcode });
    }
    expect(posts()).toEqual([]);
  });

  it('a video breaking the Reels rules ends its container in ERROR (shorter than 3 s, WebM): rejected with the reason, nothing published', async () => {
    for (const [name, reason] of [
      ['short.mp4', 'below the minimum of 3s'],
      ['v.webm', 'unsupported media type video/webm'],
    ]) {
      const error = await failure(connector().publish({ target, parts: [part(name!, { contentType: 'video', media: [media('video', name!)] })] }));
      expect(error, name).toMatchObject({ kind: 'rejected', message: expect.stringContaining(reason!) });
      expect(error?.message).toMatch(/is ERROR/);
    }
    expect(posts()).toEqual([]);
  });

  it('a container not published within 24 hours reads EXPIRED and cannot be published', async () => {
    const { body } = await graph('17841400000000001/media', { image_url: host.url('a.jpg'), caption: 'late' });
    const id = String(body.id);
    instagramContainerInfo(containersOf(sandbox.state).get(id)!).createdAt = new Date(Date.now() - 25 * 3_600_000);
    expect((await graph(id, { fields: 'status_code' }, 'GET')).body).toMatchObject({ status_code: 'EXPIRED' });
    expect((await graph('17841400000000001/media_publish', { creation_id: id })).body.error).toMatchObject({ code: 9007 });
    expect(posts()).toEqual([]);
  });

  it('refuses without calling Instagram a post of more than 10 items or a document; a polled-out container is transient', async () => {
    const eleven = Array.from({ length: 11 }, () => photo());
    await expect(connector().publish({ target, parts: [part('eleven', { media: eleven })] })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('2 to 10') });
    await expect(connector().preflight!({ target, parts: [part('eleven', { media: eleven })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().publish({ target, parts: [part('doc', { media: [{ ...photo(), type: 'document' }] })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(sandbox.state.requests).toEqual([]);
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
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 321, likes: 21, replies: 1, reposts: 4, clicks: null });
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
