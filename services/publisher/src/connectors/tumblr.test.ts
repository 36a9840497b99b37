import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tumblr } from '../../../../tools/sandbox/src/platforms/tumblr.js';
import { tumblrConnector } from './tumblr.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([tumblr]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'tumblr', username: 'acme', credentials: { access_token: 'sandbox-acme', blog: 'acme' } };
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const media = (name: string, type: MediaItem['type'], bytes: Buffer, contentType: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes, contentType }),
});
const png = (width = 320, height = 240) => makeImage({ format: 'png', width, height });
const mp4 = (seconds = 2) => makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds });
/** A raw NPF create call, as a client would make it. */
const createRaw = (body: FormData | string) =>
  fetch(`${sandbox.url}/tumblr/v2/blog/acme/posts`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-acme', ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}) },
    body,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { meta: { status: number; msg: string }; errors?: Array<{ detail: string }> } }));
const connector = () => tumblrConnector(`${sandbox.url}/tumblr`);
const posts = () => sandbox.state.postsOf('tumblr', 'acme');

describe('Tumblr connector against the Tumblr API v2 stand-in', () => {
  it('creates an NPF text post and answers the exact id_string and the blog permalink', async () => {
    const result = await connector().publish({ target, parts: [part('hello tumblr')] });
    const [post] = posts();
    expect(post?.details).toEqual({ blog: 'acme', content: [{ type: 'text', text: 'hello tumblr' }], state: 'published' });
    expect(String(Number(post?.id))).not.toBe(post?.id); // the numeric `id` would have lost digits
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://acme.tumblr.com/post/${post?.id}` });
  });

  it('uploads images and appends later parts as more blocks of the same post, recording each image read from its bytes', async () => {
    const [a, b] = [await png(320, 240), await makeImage({ format: 'jpeg', width: 800, height: 600 })];
    await connector().publish({
      target,
      parts: [part('look', { contentType: 'image', media: [media('a.png', 'image', a, 'image/png'), media('b.jpg', 'image', b, 'image/jpeg')] }), part('and more', { position: 1 })],
    });
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.details.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', media: [{ type: 'image/png', identifier: 'image-0' }] },
      { type: 'image', media: [{ type: 'image/jpeg', identifier: 'image-1' }] },
      { type: 'text', text: 'and more' },
    ]);
    expect(posts()[0]?.media).toMatchObject([
      { kind: 'image', content_type: 'image/png', width: 320, height: 240, bytes: a.length },
      { kind: 'image', content_type: 'image/jpeg', width: 800, height: 600, bytes: b.length },
    ]);
  });

  it('publishes a video as an NPF video block with the file uploaded under its identifier', async () => {
    const video = await mp4(2);
    await connector().publish({ target, parts: [part('watch', { contentType: 'video', media: [media('v.mp4', 'video', video, 'video/mp4')] })] });
    expect(posts()[0]?.details.content).toEqual([
      { type: 'text', text: 'watch' },
      { type: 'video', media: { type: 'video/mp4', identifier: 'video-0' } },
    ]);
    expect(posts()[0]?.media).toMatchObject([{ kind: 'video', content_type: 'video/mp4', width: 320, height: 240, video_codec: 'h264', bytes: video.length }]);
  });

  it('splits a body past the 4096-character text block limit into several text blocks', async () => {
    const body = `${'word '.repeat(900)}${'tail '.repeat(200)}`.trim();
    await connector().publish({ target, parts: [part(body)] });
    const blocks = posts()[0]?.details.content as Array<{ text: string }>;
    expect(blocks.length).toBe(2);
    expect(blocks.every((b) => [...b.text].length <= 4096)).toBe(true);
    expect(blocks.map((b) => b.text).join(' ')).toBe(body);
  });

  it('refuses what Tumblr refuses, with its error shape: a second uploaded video, over 30 images, a long text block, a missing file part, a non-MP4 video', async () => {
    const image = await png(64, 64);
    const text = (n: number) => ({ type: 'text', text: 'x'.repeat(n) });
    const tooLong = await createRaw(JSON.stringify({ content: [text(4097)] }));
    expect(tooLong).toEqual({
      status: 400,
      body: { meta: { status: 400, msg: 'Bad Request' }, response: [], errors: [{ title: 'Bad Request', code: 8001, detail: 'Text blocks can be at most 4096 characters.' }] },
    });
    const images = Array.from({ length: 31 }, (_, i) => ({ type: 'image', media: [{ url: `https://media.example/${i}.png` }] }));
    expect((await createRaw(JSON.stringify({ content: images }))).body.errors?.[0]?.detail).toBe('Posts can have at most 30 image blocks.');
    const twoVideos = [0, 1].map((i) => ({ type: 'video', media: { identifier: `video-${i}` } }));
    expect((await createRaw(JSON.stringify({ content: twoVideos }))).body.errors?.[0]?.detail).toBe('Posts can have at most 1 uploaded video.');
    const missing = new FormData();
    missing.append('json', JSON.stringify({ content: [{ type: 'image', media: [{ identifier: 'nope' }] }] }));
    expect((await createRaw(missing)).body.errors?.[0]?.detail).toBe('No file was uploaded for the media identifier nope.');
    const webm = await makeVideo({ container: 'webm', codec: 'vp9', width: 160, height: 120, seconds: 1 });
    const wrongType = new FormData();
    wrongType.append('json', JSON.stringify({ content: [{ type: 'video', media: { identifier: 'v' } }] }));
    wrongType.append('v', new Blob([new Uint8Array(webm)]), 'v.webm');
    const refused = await createRaw(wrongType);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.detail).toContain('unsupported media type video/webm');
    const many = Array.from({ length: 31 }, (_, i) => media(`${i}.png`, 'image', image, 'image/png'));
    await expect(connector().publish({ target, parts: [part('x', { media: many })] })).rejects.toMatchObject({ kind: 'rejected', message: 'Tumblr takes at most 30 images per post (31 given)' });
    const video = await mp4(1);
    const two = [media('a.mp4', 'video', video, 'video/mp4'), media('b.mp4', 'video', video, 'video/mp4')];
    await expect(connector().publish({ target, parts: [part('x', { media: two })] })).rejects.toMatchObject({ kind: 'rejected', message: 'Tumblr takes 1 uploaded video per post (2 given)' });
    expect(posts()).toEqual([]);
  });

  it('refuses in preflight what one post cannot carry: two videos, a document, a first comment', async () => {
    const video = await mp4(1);
    const doc = media('d.pdf', 'document', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
    for (const parts of [
      [part('x', { media: [media('a.mp4', 'video', video, 'video/mp4')] }), part('y', { position: 1, media: [media('b.mp4', 'video', video, 'video/mp4')] })],
      [part('x', { media: [doc] })],
      [part('x', { firstComment: 'c' })],
    ]) {
      await expect(connector().preflight!({ target, parts })).rejects.toMatchObject({ kind: 'rejected' });
    }
    await expect(connector().preflight!({ target, parts: [part('x', { media: [media('a.mp4', 'video', video, 'video/mp4')] })] })).resolves.toBeUndefined();
  });

  it("classifies a video Tumblr refuses (over its 5 minutes) as rejected with Tumblr's reason", async () => {
    const long = await makeVideo({ container: 'mp4', codec: 'h264', width: 64, height: 64, seconds: 301, fps: 1 });
    const error = await connector()
      .publish({ target, parts: [part('long', { media: [media('long.mp4', 'video', long, 'video/mp4')] })] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect((error as Error).message).toContain('exceeds the maximum of 300s');
    expect(posts()).toEqual([]);
  });

  it('uses a hostname blog identifier as the permalink host', async () => {
    const hosted = { ...target, credentials: { access_token: 'sandbox-acme', blog: 'acme.tumblr.com' } };
    const result = await connector().publish({ target: hosted, parts: [part('hosted')] });
    expect(result.permalink).toBe(`https://acme.tumblr.com/post/${posts()[0]?.id}`);
  });

  it('refuses first comments without calling Tumblr', async () => {
    await expect(connector().publish({ target, parts: [part('x', { firstComment: 'c' })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(posts()).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, empty post rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('tumblr', fault as never);
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
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
    expect((rejected as Error).message).toContain('Posts cannot be empty');
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('tumblr', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const id = posts()[0]?.id;
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, since)).toEqual({ platformPostId: id, permalink: `https://acme.tumblr.com/post/${id}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('reads note_count, deletes and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: null, likes: 12, replies: null, reposts: null, clicks: null });
    await connector().delete(target, platformPostId);
    expect(posts()).toEqual([]);
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired', blog: 'acme' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
