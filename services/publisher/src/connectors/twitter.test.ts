import { PLATFORM_SANDBOXES, startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { twitterConnector } from './twitter.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox(PLATFORM_SANDBOXES);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'twitter', username: 'acme', credentials: { access_token: 'sandbox-acme' } };
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const connector = (maxWaitMs?: number) => twitterConnector(`${sandbox.url}/twitter`, { pollScale: 0.01, segmentBytes: 64 * 1024, ...(maxWaitMs ? { maxWaitMs } : {}) });
const item = (bytes: Buffer, contentType: string, type: MediaItem['type'] = contentType.startsWith('video/') ? 'video' : 'image'): MediaItem => ({
  r2Key: `ws/1/${Math.random()}`,
  type,
  url: 'http://media/x',
  read: async () => ({ bytes, contentType }),
});
const mp4 = (spec: Parameters<typeof makeVideo>[0] = {}) => makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1, ...spec });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ConnectorError,
  );

describe('X connector against the X API v2 stand-in', () => {
  it('publishes a thread as a reply chain, with a first comment, and answers the permalink', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 })] });
    const posts = sandbox.state.postsOf('twitter', 'acme');
    expect(posts.map((p) => p.text)).toEqual(['one', 'two', 'link below']);
    expect(posts[1]?.details.reply).toEqual({ in_reply_to_tweet_id: posts[0]?.id });
    expect(posts[2]?.details.reply).toEqual({ in_reply_to_tweet_id: posts[0]?.id });
    expect(result).toEqual({ platformPostId: posts[0]?.id, permalink: `https://x.com/acme/status/${posts[0]?.id}` });
  });

  it('posts four images, each as X read it, and sends polls', async () => {
    const images = [
      item(await makeImage({ format: 'png', width: 640, height: 480 }), 'image/png'),
      item(await makeImage({ format: 'jpeg', width: 800, height: 600 }), 'image/jpeg'),
      item(await makeImage({ format: 'webp', width: 300, height: 300 }), 'image/webp'),
      // A still GIF the media service probed: one frame, so an image (an animated one would be a tweet_gif).
      { ...item(await makeImage({ format: 'gif', width: 200, height: 100 }), 'image/gif'), facts: { kind: 'image' as const, content_type: 'image/gif', bytes: 1, width: 200, height: 100, frames: 1 } },
    ];
    await connector().publish({ target, parts: [part('with images', { media: images })] });
    await connector().publish({ target, parts: [part('vote', { contentType: 'poll', poll: { options: ['a', 'b'], durationMinutes: 60 } })] });
    const [withImages, poll] = sandbox.state.postsOf('twitter');
    expect(withImages?.media.map((m) => [m.content_type, 'width' in m ? m.width : 0])).toEqual([
      ['image/png', 640],
      ['image/jpeg', 800],
      ['image/webp', 300],
      ['image/gif', 200],
    ]);
    expect(poll?.details.poll).toEqual({ options: ['a', 'b'], duration_minutes: 60 });
  });

  it('posts a video through initialize, append segments, finalize and STATUS until succeeded', async () => {
    const video = await mp4({ seconds: 2 });
    await connector().publish({ target, parts: [part('', { media: [item(video, 'video/mp4')] })] });
    const [post] = sandbox.state.postsOf('twitter');
    expect(post?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', bytes: video.length, width: 320, height: 240, video_codec: 'h264', audio_codec: 'aac' })]);
    expect((post?.media[0] as { duration_s: number }).duration_s).toBeCloseTo(2, 0);
    const paths = sandbox.state.requests.filter((r) => r.platform === 'twitter').map((r) => r.path.replace('/twitter', '').replace(/\d{6,}/, 'ID'));
    expect(paths.filter((p) => p.endsWith('/append')).length).toBe(Math.ceil(video.length / (64 * 1024)));
    expect(paths).toEqual(expect.arrayContaining(['/2/media/upload/initialize', '/2/media/upload/ID/finalize', '/2/media/upload']));
  });

  it('posts an animated GIF as tweet_gif, processed', async () => {
    const gif = await makeImage({ format: 'gif', width: 120, height: 90, frames: 4 });
    await connector().publish({ target, parts: [part('gif', { media: [item(gif, 'image/gif')] })] });
    expect(sandbox.state.postsOf('twitter')[0]?.media).toEqual([expect.objectContaining({ content_type: 'image/gif', frames: 4 })]);
  });

  it('refuses what X refuses, naming the rule, and posts nothing', async () => {
    const cases: Array<[string, MediaItem[], RegExp]> = [
      ['too long video', [item(await mp4({ seconds: 141, width: 64, height: 48, fps: 5, audio: false }), 'video/mp4')], /duration 14\d.*140/],
      ['too wide video', [item(await mp4({ width: 640, height: 160 }), 'video/mp4')], /aspect ratio 4\.000 exceeds the maximum of 3/],
      ['HEVC video', [item(await mp4({ codec: 'hevc' }), 'video/mp4')], /codec hevc/],
      ['video and image', [item(await mp4(), 'video/mp4'), item(await makeImage({ format: 'png', width: 64, height: 64 }), 'image/png')], /4 images, or 1 video, or 1 GIF/],
      ['five images', await Promise.all([1, 2, 3, 4, 5].map(async (n) => item(await makeImage({ format: 'png', width: 60 + n, height: 60 }), 'image/png'))), /at most 4 images/],
      ['a document', [item(Buffer.from('%PDF-1.4\n'), 'application/pdf', 'document')], /does not take application\/pdf/],
    ];
    for (const [name, media, reason] of cases) {
      const error = await failure(connector().publish({ target, parts: [part(name, { media })] }));
      expect(error, name).toBeInstanceOf(ConnectorError);
      expect(error?.kind, name).toBe('rejected');
      expect(error?.message, name).toMatch(reason);
    }
    expect(sandbox.state.postsOf('twitter')).toEqual([]);
  });

  it('the dry run refuses what X would: a video beside an image, a poll with media; a lone video passes', async () => {
    const video = item(await mp4(), 'video/mp4');
    const image = item(await makeImage({ format: 'png', width: 64, height: 64 }), 'image/png');
    await expect(connector().preflight!({ target, parts: [part('mixed', { media: [video, image] })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/1 video, or 1 GIF/),
    });
    await expect(connector().preflight!({ target, parts: [part('vote', { media: [image], poll: { options: ['a', 'b'], durationMinutes: 60 } })] })).rejects.toMatchObject({
      message: expect.stringMatching(/poll and media/),
    });
    await connector().preflight!({ target, parts: [part('video', { media: [video] })] });
    expect(sandbox.state.requests).toEqual([]);
  });

  it('stand-in rules: image limits at upload, weighted text, unprocessed and expired media ids', async () => {
    const headers = { authorization: 'Bearer sandbox-acme', 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(`${sandbox.url}/twitter${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const big = await makeImage({ format: 'png', width: 1400, height: 1300, minBytes: 5 * 1024 * 1024 + 1 });
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const tooBig = await post('/2/media/upload', { media: big.toString('base64'), media_category: 'tweet_image' });
    expect(tooBig.status).toBe(400);
    expect(await tooBig.json()).toMatchObject({ title: 'Invalid Request', errors: [{ message: expect.stringMatching(/exceeds the limit of 5242880/) }] });
    const cjk = await post('/2/tweets', { text: '字'.repeat(141) });
    expect(cjk.status).toBe(400);
    expect((await post('/2/tweets', { text: '字'.repeat(140) })).status).toBe(201);
    const init = await post('/2/media/upload/initialize', { media_type: 'video/mp4', total_bytes: 1000, media_category: 'tweet_video' });
    const { data } = (await init.json()) as { data: { id: string } };
    const unfinished = await post('/2/tweets', { text: 'x', media: { media_ids: [data.id] } });
    expect(await unfinished.json()).toMatchObject({ errors: [{ message: expect.stringMatching(/not finished processing/) }] });
    expect((await post('/2/media/upload/initialize', { media_type: 'image/png', total_bytes: 1000, media_category: 'tweet_video' })).status).toBe(400);
    expect((await post('/2/media/upload/initialize', { media_type: 'video/mp4', total_bytes: 513 * 1024 * 1024, media_category: 'tweet_video' })).status).toBe(400);
    const image = await makeImage({ format: 'jpeg', width: 64, height: 64 });
    const uploaded = (await (await post('/2/media/upload', { media: image.toString('base64'), media_category: 'tweet_image' })).json()) as { data: { id: string } };
    sandbox.state.media.get(uploaded.data.id)!.extra!.expiresAt = Date.now() - 1;
    const stale = await post('/2/tweets', { text: 'late', media: { media_ids: [uploaded.data.id] } });
    expect(stale.status).toBe(400);
    expect(await stale.json()).toMatchObject({ errors: [{ message: expect.stringMatching(/unknown or expired/) }] });
  });

  it("stand-in protocol: steps out of order, a short upload and unknown ids are refused with X's problem shape", async () => {
    const headers = { authorization: 'Bearer sandbox-acme' };
    const json = (path: string, body?: unknown) =>
      fetch(`${sandbox.url}/twitter${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const append = (id: string, index: number, bytes: Buffer) => {
      const form = new FormData();
      form.set('segment_index', String(index));
      form.set('media', new Blob([new Uint8Array(bytes)]), 'media');
      return fetch(`${sandbox.url}/twitter/2/media/upload/${id}/append`, { method: 'POST', headers, body: form });
    };
    const video = await mp4();
    const { data } = (await (await json('/2/media/upload/initialize', { media_type: 'video/mp4', total_bytes: video.length, media_category: 'tweet_video' })).json()) as { data: { id: string } };
    expect((await fetch(`${sandbox.url}/twitter/2/media/upload?command=STATUS&media_id=${data.id}`, { headers })).status).toBe(400);
    expect((await append(data.id, 0, video.subarray(0, 1000))).status).toBe(200);
    const short = await json(`/2/media/upload/${data.id}/finalize`);
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ title: 'Invalid Request', errors: [{ message: expect.stringMatching(/File size mismatch/) }] });
    expect((await append(data.id, 1, video.subarray(1000))).status).toBe(200);
    expect((await json(`/2/media/upload/${data.id}/finalize`)).status).toBe(200);
    const late = await append(data.id, 2, Buffer.from([1]));
    expect(await late.json()).toMatchObject({ errors: [{ message: expect.stringMatching(/already finalized/) }] });
    expect((await append('123', 0, Buffer.from([1]))).status).toBe(400);
  });

  it("fails a video whose processing X fails, with X's error, and gives up waiting within the bound", async () => {
    const broken = Buffer.concat([(await mp4()).subarray(0, 2000)]);
    const error = await failure(connector().publish({ target, parts: [part('broken', { media: [item(broken, 'video/mp4')] })] }));
    expect(error?.kind).toBe('rejected');
    expect(error?.message).toMatch(/X could not process the video: the media could not be decoded/);
    const slow = await failure(twitterConnector(`${sandbox.url}/twitter`, { pollScale: 1, maxWaitMs: 500 }).publish({ target, parts: [part('slow', { media: [item(await mp4(), 'video/mp4')] })] }));
    expect(slow?.kind).toBe('transient');
    expect(slow?.message).toMatch(/still processing/);
    expect(sandbox.state.postsOf('twitter')).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('twitter', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const rejected = await connector()
      .publish({ target, parts: [part('')] })
      .catch((e: unknown) => e);
    expect((rejected as ConnectorError).kind).toBe('rejected');
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('twitter', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(sandbox.state.postsOf('twitter')[0]?.id);
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
  });

  it('finds the post under many newer ones, page by page', async () => {
    const since = new Date(Date.now() - 1000);
    await connector().publish({ target, parts: [part('buried')] });
    for (let i = 0; i < 250; i++) sandbox.state.createPost('twitter', 'acme', `newer ${i}`);
    const found = await connector().findPublished({ target, parts: [part('buried')] }, since);
    expect(found?.platformPostId).toBe(sandbox.state.postsOf('twitter').find((p) => p.text === 'buried')?.id);
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 100, likes: 7, replies: 2, reposts: 4, clicks: 4 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('twitter')).toEqual([]);
    // X answers a deleted post with 200 and a resource-not-found error: reported as gone (404), never as counts.
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
