// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { youtube } from '../../../../tools/sandbox/src/platforms/youtube.js';
import { hostMedia, type MediaHost } from './media-host.test-support.js';
import { youtubeConnector } from './youtube.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let host: MediaHost;
let big: Buffer;
beforeAll(async () => {
  sandbox = await startSandbox([youtube]);
  big = await makeVideo({ width: 1280, height: 720, seconds: 4 });
  host = await hostMedia({ 'clip.mp4': await makeVideo({ width: 640, height: 360, seconds: 2 }), 'big.mp4': big, 'photo.jpg': await makeImage({ format: 'jpeg' }) });
});
afterAll(async () => {
  await sandbox.close();
  await host.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'youtube', username: 'acme', credentials: { access_token: 'sandbox-acme' } };
const clip = (name = 'clip.mp4'): MediaItem => host.item(name, 'video', 'video/mp4');
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'video', position: 0, media: [clip()], ...extra });
const connector = (chunkBytes?: number) => youtubeConnector(`${sandbox.url}/youtube`, { ...(chunkBytes ? { chunkBytes } : {}) });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ConnectorError,
  );
/** A call to the stand-in itself, to see YouTube's own answer. */
const youtubeCall = async (path: string, init: RequestInit) => {
  const answer = await fetch(`${sandbox.url}/youtube${path}`, { ...init, headers: { authorization: 'Bearer sandbox-acme', 'content-type': 'application/json', ...init.headers } });
  return { status: answer.status, body: (await answer.json().catch(() => undefined)) as { error?: { errors: Array<{ reason: string }> } } | undefined };
};
const videos = () => sandbox.state.postsOf('youtube', 'acme');

describe('YouTube connector against the Data API v3 stand-in', () => {
  it('uploads the video with the resumable protocol, public and titled by the first line by default, and comments the first comment and later parts', async () => {
    const text = 'Our new launch video\nEverything about it.';
    const result = await connector().publish({ target, parts: [part(text, { firstComment: 'Links below' }), part('Part two', { position: 1, media: [] })] });
    const [video] = videos();
    expect(video?.text).toBe(text);
    expect(video?.details).toMatchObject({ title: 'Our new launch video', description: text, categoryId: '22', privacyStatus: 'public', contentType: 'video/mp4', channelId: 'UCacme' });
    expect(video?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 640, height: 360, video_codec: 'h264', audio_codec: 'aac' })]);
    expect(video?.details.comments).toEqual(['Links below', 'Part two']);
    expect(result).toEqual({ platformPostId: video?.id, permalink: `https://www.youtube.com/watch?v=${video?.id}` });
  });

  it("honours the post's title and privacy_status options", async () => {
    await connector().publish({ target, parts: [part('Everything about the launch.', { options: { title: 'Launch day', privacy_status: 'unlisted' } })] });
    expect(videos()[0]?.details).toMatchObject({ title: 'Launch day', privacyStatus: 'unlisted', description: 'Everything about the launch.' });
  });

  it('uploads a video larger than a chunk in Content-Range chunks (308 Resume Incomplete until the last), the whole file reaching YouTube', async () => {
    const chunk = 256 * 1024;
    expect(big.length).toBeGreaterThan(chunk);
    await connector(chunk).publish({ target, parts: [part('Big one', { media: [clip('big.mp4')] })] });
    expect(sandbox.state.requests.filter((r) => r.method === 'PUT')).toHaveLength(Math.ceil(big.length / chunk));
    expect(videos()[0]?.media).toEqual([expect.objectContaining({ kind: 'video', bytes: big.length, width: 1280, height: 720 })]);
  });

  it('refuses before calling YouTube what YouTube would refuse: no video, an image, no title, a title over 100 or with <>, a description with <>', async () => {
    const refused: ContentPart[] = [
      part('text only', { contentType: 'text', media: [] }),
      part('a photo', { media: [host.item('photo.jpg', 'image')] }),
      part('\n'),
      part('fine', { options: { title: 't'.repeat(101) } }),
      part('fine', { options: { title: 'a <b> title' } }),
      part('Hearts\nI <3 it'),
    ];
    for (const p of refused) {
      await expect(connector().publish({ target, parts: [p] }), p.body).rejects.toMatchObject({ kind: 'rejected' });
      await expect(connector().preflight!({ target, parts: [p] }), p.body).rejects.toMatchObject({ kind: 'rejected' });
    }
    expect(sandbox.state.requests).toEqual([]);
  });

  it("the stand-in answers YouTube's errors: an invalid title, an unknown upload session", async () => {
    const insert = await youtubeCall('/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status', {
      method: 'POST',
      headers: { 'x-upload-content-length': '10', 'x-upload-content-type': 'video/mp4' },
      body: JSON.stringify({ snippet: { title: 'x'.repeat(101) } }),
    });
    expect(insert).toMatchObject({ status: 400, body: { error: { errors: [{ reason: 'invalidTitle' }] } } });
    const expired = await youtubeCall('/upload/youtube/v3/videos?uploadType=resumable&upload_id=gone', { method: 'PUT', body: '0123456789' });
    expect(expired).toMatchObject({ status: 404, body: { error: { errors: [{ reason: 'notFound' }] } } });
  });

  it('refuses a file YouTube cannot process as a video (uploadStatus failed, invalidFile), publishing nothing', async () => {
    const error = await failure(connector().publish({ target, parts: [part('Not a video', { media: [host.item('photo.jpg', 'video', 'video/mp4')] })] }));
    expect(error).toMatchObject({ kind: 'rejected', message: expect.stringContaining('failed (invalidFile)') });
    expect(videos()).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown, spent quota rate limited', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('youtube', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    expect(videos().map((v) => v.text)).toEqual(['fault drop_after_accept']);
    const quota = await connector()
      .publish({ target: { ...target, credentials: { access_token: 'sandbox-noquota' } }, parts: [part('no quota left')] })
      .catch((e: unknown) => e);
    expect(quota).toMatchObject({ kind: 'rate_limited', status: 403 });
  });

  it('finds a video whose upload answer was lost, so it is not uploaded twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('youtube', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const id = videos()[0]?.id;
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, since)).toEqual({ platformPostId: id, permalink: `https://www.youtube.com/watch?v=${id}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first!' })] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 1234, likes: 56, replies: 1, reposts: null, clicks: null });
    await connector().delete(target, platformPostId);
    expect(videos()).toEqual([]);
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
