import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tiktok } from '../../../../tools/sandbox/src/platforms/tiktok.js';
import { hostMedia, type MediaHost } from './media-host.test-support.js';
import { tiktokConnector } from './tiktok.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let host: MediaHost;
let big: Buffer;
beforeAll(async () => {
  sandbox = await startSandbox([tiktok]);
  big = await makeVideo({ width: 1280, height: 720, seconds: 12 });
  host = await hostMedia({
    'big.mp4': big,
    'clip.mp4': await makeVideo({ width: 360, height: 640, seconds: 3 }),
    'long.mp4': await makeVideo({ width: 360, height: 640, seconds: 16 }),
    'slow.mp4': await makeVideo({ width: 360, height: 640, seconds: 3, fps: 15 }),
    'tiny.mp4': await makeVideo({ width: 320, height: 240, seconds: 3 }),
    'a.jpg': await makeImage({ format: 'jpeg', width: 1080, height: 1350 }),
    'b.webp': await makeImage({ format: 'webp', width: 1080, height: 1350 }),
    'c.png': await makeImage({ format: 'png', width: 1080, height: 1350 }),
  });
});
afterAll(async () => {
  await sandbox.close();
  await host.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'tiktok', username: 'acme', credentials: { access_token: 'sandbox-acme', open_id: 'open-acme' } };
const locked: TargetAccount = { ...target, username: 'locked_acme', credentials: { access_token: 'sandbox-locked_acme' } };
const publicly = { privacy_level: 'PUBLIC_TO_EVERYONE' };
const video = (body: string, name = 'clip.mp4', options: ContentPart['options'] = publicly): ContentPart => ({
  body,
  contentType: 'video',
  position: 0,
  media: [host.item(name, 'video', 'video/mp4')],
  options,
});
const photos = (body: string, names: string[], options: ContentPart['options'] = publicly): ContentPart => ({
  body,
  contentType: 'image',
  position: 0,
  media: names.map((n): MediaItem => host.item(n, 'image')),
  options,
});
const connector = (maxPolls = 5, chunkBytes?: number) => tiktokConnector(`${sandbox.url}/tiktok`, { intervalMs: 5, maxPolls, ...(chunkBytes ? { chunkBytes } : {}) });
/** A call to the stand-in itself, to see TikTok's own answer. */
const tiktokCall = async (path: string, body: unknown, account = 'acme') => {
  const answer = await fetch(`${sandbox.url}/tiktok${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer sandbox-${account}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as { data: Record<string, unknown>; error: { code: string; message: string } } };
};
const status = async (publish_id: unknown, account = 'acme') => (await tiktokCall('/v2/post/publish/status/fetch/', { publish_id }, account)).body.data;
type Details = { publish_id: string; post_info: Record<string, unknown>; source_info: Record<string, unknown>; polls: number };
const posts = (account = 'acme') => sandbox.state.postsOf('tiktok', account);
const details = () => posts().map((p) => p.details as Details);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ConnectorError,
  );

describe('TikTok connector against the strict Content Posting API stand-in', () => {
  it("uploads a video (FILE_UPLOAD) with the post's privacy level, polls until PUBLISH_COMPLETE, and TikTok receives the real video", async () => {
    const result = await connector().publish({ target, parts: [video('my clip #fun')] });
    const [post] = posts();
    const size = post?.media[0]?.bytes;
    expect(details()[0]).toMatchObject({
      post_info: { title: 'my clip #fun', privacy_level: 'PUBLIC_TO_EVERYONE', disable_comment: false, disable_duet: false, disable_stitch: false },
      source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: size, total_chunk_count: 1 },
      polls: 2,
    });
    expect(post?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 360, height: 640, fps: 30, video_codec: 'h264' })]);
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://www.tiktok.com/@acme/video/${post?.id}` });
  });

  it('publishes photos (JPEG and WebP) as a DIRECT_POST PHOTO post, every photo reaching TikTok', async () => {
    const body = 'Our new shop\nOpen every day from 9';
    await connector().publish({ target, parts: [photos(body, ['a.jpg', 'b.webp'], { privacy_level: 'MUTUAL_FOLLOW_FRIENDS', disable_comment: true })] });
    expect(details()[0]).toMatchObject({
      media_type: 'PHOTO',
      post_info: { title: 'Our new shop', description: body, privacy_level: 'MUTUAL_FOLLOW_FRIENDS', disable_comment: true },
      source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: [host.url('a.jpg'), host.url('b.webp')] },
    });
    expect(posts()[0]?.media.map((m) => [m.content_type, 'width' in m ? m.width : undefined])).toEqual([
      ['image/jpeg', 1080],
      ['image/webp', 1080],
    ]);
  });

  it('refuses a post without a privacy level before calling TikTok, naming it, in a publish and a dry run alike', async () => {
    const error = await failure(connector().publish({ target, parts: [video('no privacy', 'clip.mp4', {})] }));
    expect(error).toMatchObject({ kind: 'rejected', message: expect.stringContaining('privacy_level is required') });
    await expect(connector().preflight!({ target, parts: [video('no privacy', 'clip.mp4', {})] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(sandbox.state.requests).toEqual([]);
  });

  it("refuses a privacy level outside the creator's options: the connector's preflight, and the stand-in with TikTok's error", async () => {
    const follower = video('followers only', 'clip.mp4', { privacy_level: 'FOLLOWER_OF_CREATOR' });
    const error = await failure(connector().preflight!({ target, parts: [follower] }));
    expect(error).toMatchObject({ kind: 'rejected', message: expect.stringContaining("FOLLOWER_OF_CREATOR is not one of this creator's privacy_level_options") });
    const answer = await tiktokCall('/v2/post/publish/video/init/', {
      post_info: { title: 'x', privacy_level: 'FOLLOWER_OF_CREATOR' },
      source_info: { source: 'FILE_UPLOAD', video_size: 10, chunk_size: 10, total_chunk_count: 1 },
    });
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 'privacy_level_option_mismatch' } } });
    expect(posts()).toEqual([]);
  });

  it('answers a private post, which has no public id, by its publish_id and the profile', async () => {
    const result = await connector().publish({ target, parts: [video('private', 'clip.mp4', { privacy_level: 'SELF_ONLY' })] });
    expect(result).toEqual({ platformPostId: details()[0]?.publish_id, permalink: 'https://www.tiktok.com/@acme' });
  });

  it("media breaking TikTok's rules fails processing with TikTok's fail_reason, classified rejected", async () => {
    const cases: Array<[ContentPart, string]> = [
      [video('15 fps', 'slow.mp4'), 'frame_rate_check_failed'],
      [video('320x240', 'tiny.mp4'), 'picture_size_check_failed'],
      [video('an image', 'a.jpg'), 'file_format_check_failed'],
      [photos('a png', ['a.jpg', 'c.png']), 'file_format_check_failed'],
      [photos('a gone photo', ['a.jpg', 'gone.jpg']), 'photo_pull_failed'],
    ];
    for (const [part, reason] of cases) {
      const error = await failure(connector().publish({ target, parts: [part] }));
      expect(error, reason).toMatchObject({ kind: 'rejected', message: `tiktok: publishing failed: ${reason}` });
    }
  });

  it("uploads a video over the chunk size in TikTok's chunks (the remainder in the last), every byte reaching TikTok", async () => {
    const chunk = 5 * 1024 * 1024;
    await connector(5, chunk).publish({ target, parts: [video('big one', 'big.mp4')] });
    expect(details()[0]?.source_info).toEqual({ source: 'FILE_UPLOAD', video_size: big.length, chunk_size: chunk, total_chunk_count: Math.floor(big.length / chunk) });
    expect(sandbox.state.requests.filter((r) => r.method === 'PUT')).toHaveLength(Math.floor(big.length / chunk));
    expect(posts()[0]?.media).toEqual([expect.objectContaining({ kind: 'video', bytes: big.length, width: 1280, height: 720 })]);
  });

  it("the stand-in enforces TikTok's upload protocol: chunk rules at init, chunks in order, an expired upload URL, a video URL it cannot pull", async () => {
    const init = (source_info: Record<string, unknown>) => tiktokCall('/v2/post/publish/video/init/', { post_info: { title: 'x', privacy_level: 'SELF_ONLY' }, source_info });
    const MiB = 1024 * 1024;
    for (const bad of [
      { video_size: 20 * MiB, chunk_size: 2 * MiB, total_chunk_count: 10 },
      { video_size: 20 * MiB, chunk_size: 5 * MiB, total_chunk_count: 3 },
      { video_size: 3 * MiB, chunk_size: MiB, total_chunk_count: 3 },
    ]) {
      expect(await init({ source: 'FILE_UPLOAD', ...bad }), JSON.stringify(bad)).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    }
    const started = await init({ source: 'FILE_UPLOAD', video_size: 10, chunk_size: 10, total_chunk_count: 1 });
    const uploadUrl = String(started.body.data.upload_url);
    expect(await status(started.body.data.publish_id)).toMatchObject({ status: 'PROCESSING_UPLOAD', uploaded_bytes: 0 });
    const put = (range: string, bytes: number) => fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': range }, body: new Uint8Array(bytes) });
    expect((await put('bytes 2-9/10', 8)).status).toBe(416);
    sandbox.state.media.get(`tiktok:${String(started.body.data.publish_id)}`)!.extra!.createdAt = Date.now() - 2 * 3_600_000;
    expect((await put('bytes 0-9/10', 10)).status).toBe(403);
    const pulled = await init({ source: 'PULL_FROM_URL', video_url: host.url('gone.mp4') });
    await status(pulled.body.data.publish_id);
    expect(await status(pulled.body.data.publish_id)).toEqual({ status: 'FAILED', fail_reason: 'video_pull_failed' });
    expect(posts().filter((p) => !(p.details as { fail_reason?: string }).fail_reason)).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited, bad token auth, dropped answer unknown, polling out unknown, no media rejected', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('tiktok', fault as never);
      const error = await failure(connector().publish({ target, parts: [video(`fault ${fault}`)] }));
      expect(error).toBeInstanceOf(ConnectorError);
      expect(error?.kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect(error?.retryAfterMs).toBe(1000);
    }
    await expect(connector(1).publish({ target, parts: [video('slow')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    await expect(connector().publish({ target, parts: [{ body: 'text only', contentType: 'text', position: 0, media: [], options: publicly }] })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('finds a post whose answer was lost in the video list; a video whose init answer was lost was never uploaded, so it is not there', async () => {
    const since = new Date();
    sandbox.state.addFault('tiktok', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [photos('maybe sent', ['a.jpg'])] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const id = posts()[0]?.id;
    expect(await connector().findPublished({ target, parts: [photos('maybe sent', ['a.jpg'])] }, since)).toEqual({ platformPostId: id, permalink: `https://www.tiktok.com/@acme/video/${id}` });
    expect(await connector().findPublished({ target, parts: [photos('never sent', ['a.jpg'])] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [photos('maybe sent', ['a.jpg'])] }, new Date(Date.now() + 5000))).toBeNull();
    sandbox.state.addFault('tiktok', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [video('video maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    expect(await connector().findPublished({ target, parts: [video('video maybe sent')] }, since)).toBeNull();
  });

  it('reads metrics (clicks are not reported: null), cannot delete, and validates credentials (and that the token is the account’s)', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [video('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 900, likes: 40, replies: 5, reposts: 6, clicks: null });
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth', status: 401 });
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, open_id: 'open-someone-else' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

describe('TikTok creator info', () => {
  it('answers the documented fields of creator_info/query', async () => {
    expect(await connector().creatorInfo(locked)).toEqual({
      creator_avatar_url: expect.stringContaining('locked_acme'),
      creator_username: 'locked_acme',
      creator_nickname: 'locked_acme (sandbox)',
      privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: true,
      duet_disabled: true,
      stitch_disabled: true,
      max_video_post_duration_sec: 15,
    });
  });

  it("the creator's disabled comments, duets and stitches override the post's own choice; an open creator keeps it", async () => {
    await connector().publish({ target: locked, parts: [video('open to all', 'clip.mp4', { privacy_level: 'SELF_ONLY', disable_comment: false })] });
    expect(posts('locked_acme')[0]?.details).toMatchObject({ post_info: { disable_comment: true, disable_duet: true, disable_stitch: true } });
    await connector().publish({ target, parts: [video('no duets please', 'clip.mp4', { ...publicly, disable_duet: true })] });
    expect(details()[0]).toMatchObject({ post_info: { disable_comment: false, disable_duet: true, disable_stitch: false } });
  });

  it("refuses a video longer than the creator may post before sending anything (from the media's facts or its bytes), and the stand-in fails it too", async () => {
    const long = { target: locked, parts: [video('too long', 'long.mp4', { privacy_level: 'SELF_ONLY' })] };
    await expect(connector().publish(long)).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('16 s long; this creator may post at most 15 s') });
    const withFacts = {
      ...long,
      parts: [{ ...long.parts[0]!, media: [{ ...host.item('clip.mp4', 'video'), facts: { kind: 'video' as const, content_type: 'video/mp4', bytes: 1, duration_s: 20 } }] }],
    };
    await expect(connector().preflight!(withFacts)).rejects.toMatchObject({ message: expect.stringContaining('20 s long') });
    expect(sandbox.state.requests.filter((r) => r.creates)).toEqual([]);
    await expect(connector().preflight!({ target: locked, parts: [video('short', 'clip.mp4', { privacy_level: 'SELF_ONLY' })] })).resolves.toBeUndefined();
    const pulled = await tiktokCall(
      '/v2/post/publish/video/init/',
      { post_info: { title: 'long', privacy_level: 'SELF_ONLY' }, source_info: { source: 'PULL_FROM_URL', video_url: host.url('long.mp4') } },
      'locked_acme',
    );
    expect(await status(pulled.body.data.publish_id, 'locked_acme')).toMatchObject({ status: 'PROCESSING_DOWNLOAD' });
    expect(await status(pulled.body.data.publish_id, 'locked_acme')).toEqual({ status: 'FAILED', fail_reason: 'duration_check_failed' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [video('vanishes')] });
});
