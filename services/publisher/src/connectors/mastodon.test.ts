import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mastodon } from '../../../../tools/sandbox/src/platforms/mastodon.js';
import { mastodonConnector, plainText } from './mastodon.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let target: TargetAccount;
beforeAll(async () => {
  sandbox = await startSandbox([mastodon]);
  target = { socialAccountId: 1, platform: 'mastodon', username: 'acme', credentials: { access_token: 'sandbox-acme', instance_url: `${sandbox.url}/mastodon/` } };
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const media = (name: string, bytes: Buffer, contentType: string, facts?: MediaItem['facts']): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type: contentType.startsWith('video/') ? 'video' : 'image',
  url: `https://media.example/${name}`,
  read: async () => ({ bytes, contentType }),
  facts,
});
const png = async (name: string, width = 320, height = 240) => media(name, await makeImage({ format: 'png', width, height }), 'image/png');
const mp4 = async (name: string, spec: Parameters<typeof makeVideo>[0] = {}) =>
  media(name, await makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1, ...spec }), 'video/mp4');
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
/** The base URL goes nowhere: every call must go to the account's `instance_url`. */
const connector = () => mastodonConnector('http://127.0.0.1:9', { mediaPollMs: 5 });

describe('Mastodon connector against an instance stand-in', () => {
  it('publishes a thread as replies with in_reply_to_id, a first comment, and answers the Status url', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 })] });
    const posts = sandbox.state.postsOf('mastodon', 'acme');
    expect(posts.map((p) => p.text)).toEqual(['one', 'two', 'link below']);
    expect(posts.map((p) => p.details.in_reply_to_id)).toEqual([null, posts[0]?.id, posts[0]?.id]);
    expect(result).toEqual({ platformPostId: posts[0]?.id, permalink: `${sandbox.url}/mastodon/@acme/${posts[0]?.id}` });
  });

  it('uploads four images, and a video (waiting while it processes), through /api/v2/media, and sends a poll', async () => {
    const images = [
      await png('a.png', 320, 240),
      await png('b.png', 640, 480),
      await png('c.png', 100, 100),
      media('d.jpg', await makeImage({ format: 'jpeg', width: 800, height: 600 }), 'image/jpeg'),
    ];
    await connector().publish({ target, parts: [part('images', { media: images })] });
    await connector().publish({ target, parts: [part('video', { media: [await mp4('e.mp4', { seconds: 2 })] })] });
    await connector().publish({ target, parts: [part('vote', { contentType: 'poll', poll: { options: ['tea', 'coffee'], durationMinutes: 60 } })] });
    const [withImages, withVideo, poll] = sandbox.state.postsOf('mastodon');
    expect(withImages?.media.map((m) => [m.content_type, 'width' in m ? m.width : 0])).toEqual([
      ['image/png', 320],
      ['image/png', 640],
      ['image/png', 100],
      ['image/jpeg', 800],
    ]);
    expect(withVideo?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 320, height: 240, video_codec: 'h264' })]);
    expect(poll?.details.poll).toEqual({ options: ['tea', 'coffee'], expires_in: 3600 });
  });

  it('the stand-in enforces the instance configuration with 422 {error}; the connector refuses a mix and checks the limits in its preflight', async () => {
    const config = (await (await fetch(`${sandbox.url}/mastodon/api/v2/instance`)).json()) as { configuration: { media_attachments: { video_frame_rate_limit: number } } };
    expect(config.configuration.media_attachments.video_frame_rate_limit).toBe(120);
    const upload = async (item: MediaItem) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array((await item.read()).bytes)]), 'f');
      const answer = await fetch(`${sandbox.url}/mastodon/api/v2/media`, { method: 'POST', headers: { authorization: 'Bearer sandbox-acme' }, body: form });
      return { status: answer.status, body: (await answer.json()) as { error?: string } };
    };
    expect(await upload(media('t.tiff', await makeImage({ format: 'tiff', width: 50, height: 50 }), 'image/tiff'))).toEqual({
      status: 422,
      body: { error: 'Validation failed: File content type is invalid, File is invalid' },
    });
    expect(await upload(media('huge.jpg', await makeImage({ format: 'jpeg', width: 6000, height: 6000 }), 'image/jpeg'))).toEqual({
      status: 422,
      body: { error: '6000x6000 images are not supported' },
    });
    expect(await upload(await mp4('fast.mp4', { width: 64, height: 48, fps: 150, audio: false }))).toEqual({ status: 422, body: { error: '150fps videos are not supported' } });
    const mixed = [await png('a.png'), await mp4('v.mp4')];
    await expect(connector().publish({ target, parts: [part('mixed', { media: mixed })] })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringMatching(/video beside other media/) });
    const fastFacts = media('fast.mp4', Buffer.alloc(0), 'video/mp4', { kind: 'video', content_type: 'video/mp4', bytes: 1000, width: 64, height: 48, fps: 150 });
    await expect(connector().preflight!({ target, parts: [part('fast', { media: [fastFacts] })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/150 fps is over the instance's frame rate limit of 120/),
    });
    await expect(connector().preflight!({ target, parts: [part('x'.repeat(501))] })).rejects.toMatchObject({ message: expect.stringMatching(/500 characters/) });
    // A URL counts 23 however long it is.
    await connector().preflight!({ target, parts: [part(`${'x'.repeat(470)} https://example.com/${'a'.repeat(200)}`)] });
    await connector().publish({ target, parts: [part(`${'x'.repeat(470)} https://example.com/${'a'.repeat(200)}`)] });
    expect(sandbox.state.postsOf('mastodon')).toHaveLength(1);
  });

  it("fails a video whose processing fails, with the instance's error", async () => {
    const broken = media('broken.mp4', (await makeVideo({ container: 'mp4', codec: 'h264', width: 64, height: 48, seconds: 1 })).subarray(0, 1500), 'video/mp4');
    await expect(connector().publish({ target, parts: [part('broken', { media: [broken] })] })).rejects.toMatchObject({
      kind: 'rejected',
      status: 422,
      message: expect.stringMatching(/Error processing thumbnail/),
    });
    expect(sandbox.state.postsOf('mastodon')).toEqual([]);
  });

  it('sends an Idempotency-Key derived from the request, so a retry after a lost answer does not post twice', async () => {
    sandbox.state.addFault('mastodon', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('retry me')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const retried = await connector().publish({ target, parts: [part('retry me')] });
    const posts = sandbox.state.postsOf('mastodon');
    expect(posts).toHaveLength(1);
    expect(retried.platformPostId).toBe(posts[0]?.id);
    expect(posts[0]?.details.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    await connector().publish({ target: { ...target, socialAccountId: 2 }, parts: [part('retry me')] });
    expect(sandbox.state.postsOf('mastodon')).toHaveLength(2);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 422 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('mastodon', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    await expect(connector().publish({ target, parts: [part('x'.repeat(501))] })).rejects.toMatchObject({ kind: 'rejected', status: 422 });
  });

  it('finds a status whose answer was lost by its rendered text, and null for a never-sent text', async () => {
    const since = new Date(Date.now() - 1000);
    const text = 'Fish & chips <today>\nmenu at https://acme.example/menu?x=1&y=2\n\nsee you';
    sandbox.state.addFault('mastodon', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part(text)] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part(text)] }, since);
    const [post] = sandbox.state.postsOf('mastodon');
    expect(found).toEqual({ platformPostId: post?.id, permalink: `${sandbox.url}/mastodon/@acme/${post?.id}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part(text)] }, new Date(Date.now() + 5000))).toBeNull();
  });

  it('reads the text back out of Mastodon HTML', () => {
    expect(plainText('<p>a &amp; b<br />c</p><p><a href="https://x.example/"><span class="invisible">https://</span><span>x.example/</span></a> &#39;q&#39;</p>')).toBe(
      "a & b\nc\n\nhttps://x.example/ 'q'",
    );
  });

  it('deletes, reads metrics and validates credentials (falling back to the base URL without instance_url)', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: null, likes: 11, replies: 4, reposts: 3, clicks: null });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('mastodon')).toEqual([]);
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(target)).toBe(true);
    expect(await mastodonConnector(`${sandbox.url}/mastodon`).validateCredentials({ ...target, credentials: { access_token: 'sandbox-acme' } })).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
