// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { threads } from '../../../../tools/sandbox/src/platforms/threads.js';
import { hostMedia, type MediaHost } from './media-host.test-support.js';
import { threadsConnector } from './threads.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let host: MediaHost;
beforeAll(async () => {
  sandbox = await startSandbox([threads]);
  const video = (spec: Parameters<typeof makeVideo>[0] = {}) => makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1, fps: 30, ...spec });
  host = await hostMedia({
    'a.jpg': await makeImage({ format: 'jpeg', width: 800, height: 600 }),
    'b.png': await makeImage({ format: 'png', width: 400, height: 400 }),
    'v.mp4': await video({ seconds: 2 }),
    'mov.mov': await makeVideo({ container: 'mov', codec: 'hevc', width: 320, height: 240, seconds: 1, fps: 30 }),
    'banner.png': await makeImage({ format: 'png', width: 1200, height: 100 }),
    'a.webp': await makeImage({ format: 'webp', width: 400, height: 300 }),
    'slow-fps.mp4': await video({ fps: 15 }),
    'long.mp4': await video({ seconds: 301, width: 64, height: 48, fps: 24, audio: false }),
    'wide.mp4': await video({ width: 2560, height: 1440 }),
  });
});
afterAll(async () => {
  await sandbox.close();
  await host.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'threads', username: 'acme', credentials: { access_token: 'sandbox-acme', threads_user_id: '25000000000000001' } };
const media = (type: 'image' | 'video', name: string): MediaItem => host.item(name, type);
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const connector = (attempts = 3) => threadsConnector(`${sandbox.url}/threads`, { intervalMs: 1, attempts });
const posts = () => sandbox.state.postsOf('threads', 'acme');

describe('Threads connector against the Threads API stand-in', () => {
  it('publishes a thread as a reply chain, the first comment as a reply to the first post, and reads the permalink', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 }), part('three', { position: 2 })] });
    const [one, two, three, comment] = posts();
    expect(posts().map((p) => p.text)).toEqual(['one', 'two', 'three', 'link below']);
    expect(one?.details).toMatchObject({ owner: '25000000000000001', reply_to_id: undefined, container: { media_type: 'TEXT' } });
    expect(two?.details.reply_to_id).toBe(one?.id);
    expect(three?.details.reply_to_id).toBe(two?.id);
    expect(comment?.details.reply_to_id).toBe(one?.id);
    expect(result.platformPostId).toBe(one?.id);
    expect(result.permalink).toMatch(/^https:\/\/www\.threads\.net\/@acme\/post\/\w+$/);
  });

  it('publishes an image, a video after polling, a carousel and a poll', async () => {
    await connector().publish({ target, parts: [part('image', { contentType: 'image', media: [media('image', 'a.jpg')] })] });
    await connector().publish({ target, parts: [part('video', { contentType: 'video', media: [media('video', 'v.mp4')] })] });
    await connector().publish({ target, parts: [part('carousel', { contentType: 'image', media: [media('image', 'a.jpg'), media('video', 'v.mp4')] })] });
    await connector().publish({ target, parts: [part('Which?', { contentType: 'poll', poll: { options: ['red', 'blue', 'green'], durationMinutes: 1440 } })] });
    const [image, video, carousel, poll] = posts();
    expect(image?.details.container).toEqual({ media_type: 'IMAGE', image_url: host.url('a.jpg') });
    expect(image?.media).toEqual([expect.objectContaining({ kind: 'image', content_type: 'image/jpeg', width: 800, height: 600 })]);
    expect(video?.details.container).toEqual({ media_type: 'VIDEO', video_url: host.url('v.mp4') });
    expect(video?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 320, video_codec: 'h264', audio_codec: 'aac', fps: 30 })]);
    expect((video?.media[0] as { duration_s: number }).duration_s).toBeCloseTo(2, 0);
    expect(carousel?.details.container).toMatchObject({ media_type: 'CAROUSEL' });
    expect(carousel?.details.children).toEqual([
      { media_type: 'IMAGE', image_url: host.url('a.jpg'), is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: host.url('v.mp4'), is_carousel_item: 'true' },
    ]);
    expect(carousel?.media.map((m) => m.content_type)).toEqual(['image/jpeg', 'video/mp4']);
    expect(poll?.details.container).toEqual({ media_type: 'TEXT', poll_attachment: JSON.stringify({ option_a: 'red', option_b: 'blue', option_c: 'green' }) });
  });

  it('publishes a PNG and a MOV with HEVC, as Threads takes them', async () => {
    await connector().publish({ target, parts: [part('carousel', { media: [media('image', 'b.png'), media('video', 'mov.mov')] })] });
    expect(posts()[0]?.media).toEqual([expect.objectContaining({ content_type: 'image/png', width: 400 }), expect.objectContaining({ content_type: 'video/quicktime', video_codec: 'hevc' })]);
  });

  it('refuses what Threads refuses: images at container creation with the Graph error, videos by container ERROR with error_message', async () => {
    const refused: Array<[string, MediaItem[], RegExp]> = [
      ['webp', [media('image', 'a.webp')], /unsupported media type image\/webp/],
      ['banner', [media('image', 'banner.png')], /aspect ratio 12\.000 exceeds the maximum of 10/],
      ['slow fps', [media('video', 'slow-fps.mp4')], /is ERROR: INVALID_FRAME_RATE/],
      ['too long', [media('video', 'long.mp4')], /is ERROR: INVALID_DURATION/],
      ['too wide', [media('video', 'wide.mp4')], /is ERROR: FAILED_PROCESSING_VIDEO/],
      ['missing', [media('video', 'nowhere.mp4')], /is ERROR: FAILED_DOWNLOADING_VIDEO/],
      ['document', [{ ...media('image', 'a.jpg'), type: 'document' }], /not a document/],
      ['21 items', Array.from({ length: 21 }, () => media('image', 'a.jpg')), /at most 20 items/],
    ];
    for (const [name, items, reason] of refused) {
      const error = await connector()
        .publish({ target, parts: [part(name, { media: items })] })
        .then(
          () => undefined,
          (e: unknown) => e as ConnectorError,
        );
      expect(error, name).toBeInstanceOf(ConnectorError);
      expect(error?.kind, name).toBe('rejected');
      expect(error?.message, name).toMatch(reason);
    }
    expect(posts()).toEqual([]);
  });

  it('counts text as Threads does (emojis by UTF-8 bytes, at most 5 links): the stand-in refuses, and so does the dry run', async () => {
    const emoji = '😀'.repeat(126); // 126 characters, 504 by Threads' count
    await expect(connector().publish({ target, parts: [part(emoji)] })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringMatching(/at most 500 characters/) });
    await expect(connector().preflight!({ target, parts: [part(emoji)] })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringMatching(/counts 504/) });
    const links = [1, 2, 3, 4, 5, 6].map((n) => `https://example.com/${n}`).join(' ');
    await expect(connector().publish({ target, parts: [part(links)] })).rejects.toMatchObject({ message: expect.stringMatching(/THREADS_API__LINK_LIMIT_EXCEEDED/) });
    await expect(connector().preflight!({ target, parts: [part(links)] })).rejects.toMatchObject({ message: expect.stringMatching(/at most 5 links/) });
    await connector().preflight!({ target, parts: [part('😀'.repeat(125))] });
    await connector().publish({ target, parts: [part('😀'.repeat(125))] });
    expect(posts()).toHaveLength(1);
  });

  it('stops polling: a container in ERROR is rejected, one never ready is transient; nothing is published', async () => {
    await expect(connector().publish({ target, parts: [part('bad', { media: [media('video', 'nowhere.mp4')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector(1).publish({ target, parts: [part('slow', { media: [media('video', 'v.mp4')] })] })).rejects.toMatchObject({ kind: 'transient' });
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
      sandbox.state.addFault('threads', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    expect(posts().map((p) => p.text)).toEqual(['fault drop_after_accept']);
    const rejected = await connector()
      .publish({ target, parts: [part('')] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
    await expect(connector().publish({ target: { ...target, credentials: { access_token: 'sandbox-acme' } }, parts: [part('no user id')] })).rejects.toMatchObject({ kind: 'auth' });
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('threads', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(posts()[0]?.id);
    expect(found?.permalink).toMatch(/^https:\/\/www\.threads\.net\/@acme\/post\//);
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first' })] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 480, likes: 33, replies: 1, reposts: 7, clicks: null });
    await connector().delete(target, platformPostId);
    expect(posts().map((p) => p.text)).toEqual(['first']);
    // Graph answers 400 code 100 subcode 33 for a post that no longer exists: gone (404), not a retry.
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
