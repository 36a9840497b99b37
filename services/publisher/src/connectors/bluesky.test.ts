import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bluesky } from '../../../../tools/sandbox/src/platforms/bluesky.js';
import { blueskyConnector, linkFacets } from './bluesky.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let target: TargetAccount;
beforeAll(async () => {
  sandbox = await startSandbox([bluesky]);
  target = {
    socialAccountId: 1,
    platform: 'bluesky',
    username: 'acme',
    credentials: { access_token: 'sandbox-acme', did: 'did:plc:acme', handle: 'acme.bsky.social', pds_url: `${sandbox.url}/bluesky` },
  };
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

type Record = { text: string; facets?: unknown; embed?: { $type: string; images: Array<{ image: { ref: { $link: string } } }> }; reply?: unknown };
const media = (name: string, bytes: Buffer, contentType: string, facts?: MediaItem['facts']): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type: contentType.startsWith('video/') ? 'video' : 'image',
  url: `https://media.example/${name}`,
  read: async () => ({ bytes, contentType }),
  facts,
});
const image = async (name: string, width = 320, height = 240) => media(name, await makeImage({ format: 'png', width, height }), 'image/png');
const mp4 = (spec: Parameters<typeof makeVideo>[0] = {}) => makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1, ...spec });
const videoConnector = (maxWaitMs?: number, jobPollMs = 5) => blueskyConnector('http://127.0.0.1:9', { videoServiceUrl: `${sandbox.url}/bluesky`, jobPollMs, ...(maxWaitMs ? { maxWaitMs } : {}) });
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
/** The base URL goes nowhere: every call must go to the account's `pds_url`. */
const connector = () => blueskyConnector('http://127.0.0.1:9');
const records = () => sandbox.state.postsOf('bluesky', 'acme').map((p) => ({ ...p, record: p.details.record as Record }));

describe('Bluesky connector against a PDS stand-in', () => {
  it('publishes a thread as replies {root, parent}, a first comment replying to the root, and answers the at:// URI and bsky.app permalink', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 }), part('three', { position: 2 })] });
    const [one, two, three, comment] = records();
    const ref = (p: typeof one) => ({ uri: p?.details.uri, cid: p?.details.cid });
    expect([one, two, three, comment].map((p) => p?.text)).toEqual(['one', 'two', 'three', 'link below']);
    expect(one?.record.reply).toBeUndefined();
    expect(two?.record.reply).toEqual({ root: ref(one), parent: ref(one) });
    expect(three?.record.reply).toEqual({ root: ref(one), parent: ref(two) });
    expect(comment?.record.reply).toEqual({ root: ref(one), parent: ref(one) });
    expect(result).toEqual({ platformPostId: `at://did:plc:acme/app.bsky.feed.post/${one?.id}`, permalink: `https://bsky.app/profile/acme.bsky.social/post/${one?.id}` });
    expect(one?.id).toMatch(/^[2-7a-z]{13}$/);
  });

  it('marks links with facets at UTF-8 byte offsets, after multi-byte text and without trailing punctuation', async () => {
    const text = 'Café ☕ 日本 see https://acme.example/x, and (https://b.example/y)';
    await connector().publish({ target, parts: [part(text)] });
    const [post] = records();
    expect(post?.record.facets).toEqual([
      { index: { byteStart: 21, byteEnd: 43 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://acme.example/x' }] },
      { index: { byteStart: 50, byteEnd: 69 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://b.example/y' }] },
    ]);
    expect(Buffer.from(text).subarray(21, 43).toString()).toBe('https://acme.example/x');
    expect(linkFacets('no links here')).toEqual([]);
  });

  it('uploads images as blobs and embeds them as app.bsky.embed.images with their aspect ratio', async () => {
    const jpeg = await makeImage({ format: 'jpeg', width: 800, height: 600 });
    const probed = media('b.jpg', jpeg, 'image/jpeg', { kind: 'image', content_type: 'image/jpeg', bytes: jpeg.length, width: 800, height: 600 });
    await connector().publish({ target, parts: [part('pictures', { contentType: 'image', media: [await image('a.png'), probed] })] });
    const [post] = records();
    expect(post?.record.embed).toMatchObject({ $type: 'app.bsky.embed.images', images: [{ alt: '' }, { alt: '', aspectRatio: { width: 800, height: 600 } }] });
    expect(post?.media.map((m) => [m.content_type, 'width' in m ? m.width : 0])).toEqual([
      ['image/png', 320],
      ['image/jpeg', 800],
    ]);
  });

  it('publishes a video through the video service (service auth, uploadVideo, getJobStatus) as app.bsky.embed.video', async () => {
    const video = await mp4({ seconds: 2, width: 640, height: 360 });
    const item = media('clip.mp4', video, 'video/mp4', { kind: 'video', content_type: 'video/mp4', bytes: video.length, width: 640, height: 360, duration_s: 2 });
    await videoConnector().publish({ target, parts: [part('a clip', { media: [item] })] });
    const [post] = records();
    expect(post?.record.embed).toMatchObject({ $type: 'app.bsky.embed.video', video: { mimeType: 'video/mp4', size: video.length }, aspectRatio: { width: 640, height: 360 } });
    expect(post?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 640, height: 360, video_codec: 'h264' })]);
    const paths = sandbox.state.requests.map((r) => r.path.replace('/bluesky/xrpc/', ''));
    expect(paths).toEqual(['com.atproto.server.getServiceAuth', 'app.bsky.video.uploadVideo', 'app.bsky.video.getJobStatus', 'app.bsky.video.getJobStatus', 'com.atproto.repo.createRecord']);
  });

  it('refuses a video the service fails with its message, gives up within the bound, and posts nothing', async () => {
    const long = media('long.mp4', await mp4({ seconds: 181, width: 64, height: 48, fps: 5, audio: false }), 'video/mp4');
    await expect(videoConnector().publish({ target, parts: [part('long', { media: [long] })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/Bluesky could not process the video: video duration 18\d.*exceeds the maximum of 180s/),
    });
    const webm = media('clip.webm', await makeVideo({ container: 'webm', codec: 'vp9', width: 160, height: 120, seconds: 1 }), 'video/webm');
    await expect(videoConnector().publish({ target, parts: [part('webm', { media: [webm] })] })).rejects.toMatchObject({ message: expect.stringMatching(/unsupported media type video\/webm/) });
    const slow = media('slow.mp4', await mp4(), 'video/mp4');
    await expect(videoConnector(30, 50).publish({ target, parts: [part('slow', { media: [slow] })] })).rejects.toMatchObject({ kind: 'transient', message: expect.stringMatching(/still processing/) });
    expect(records()).toEqual([]);
  });

  it('the video service takes only a live service token for the PDS, and answers an unknown job 404', async () => {
    const video = await mp4();
    const token = async (query: string) =>
      ((await (await fetch(`${sandbox.url}/bluesky/xrpc/com.atproto.server.getServiceAuth?${query}`, { headers: { authorization: 'Bearer sandbox-acme' } })).json()) as { token: string }).token;
    const upload = (bearer: string) =>
      fetch(`${sandbox.url}/bluesky/xrpc/app.bsky.video.uploadVideo?did=did:plc:acme&name=v.mp4`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'video/mp4' },
        body: new Uint8Array(video),
      });
    const expired = await upload(await token(`aud=did:web:127.0.0.1&lxm=com.atproto.repo.uploadBlob&exp=${Math.floor(Date.now() / 1000) - 5}`));
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: 'AuthMissing' });
    expect((await upload(await token('aud=did:web:video.bsky.app&lxm=app.bsky.video.getUploadLimits'))).status).toBe(401);
    expect((await upload('sandbox-acme')).status).toBe(401);
    expect((await upload(await token('aud=did:web:127.0.0.1&lxm=com.atproto.repo.uploadBlob'))).status).toBe(200);
    expect((await fetch(`${sandbox.url}/bluesky/xrpc/app.bsky.video.getJobStatus?jobId=nope`)).status).toBe(404);
  });

  it('refuses what the lexicon refuses: a video beside images, a blob over 2,000,000 bytes, text over 3000 bytes', async () => {
    const video = media('v.mp4', await mp4(), 'video/mp4');
    await expect(videoConnector().preflight!({ target, parts: [part('mixed', { media: [video, await image('x.png')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(videoConnector().publish({ target, parts: [part('mixed', { media: [video, await image('x.png')] })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/one video per post/),
    });
    const big = media('big.png', await makeImage({ format: 'png', width: 900, height: 800, minBytes: 2_000_001 }), 'image/png');
    const error = await connector()
      .publish({ target, parts: [part('big', { media: [big] })] })
      .catch((e: unknown) => e as ConnectorError);
    expect(error).toMatchObject({ kind: 'rejected', status: 400, message: expect.stringMatching(/exceeds the limit of 2000000/) });
    // 300 graphemes of 4-byte emoji pass the grapheme count but not the 3000-byte one.
    const bytes = await connector()
      .publish({ target, parts: [part('😀'.repeat(300))] })
      .then(() => undefined)
      .catch((e: unknown) => e as ConnectorError);
    expect(bytes).toBeUndefined();
    await expect(connector().publish({ target, parts: [part('👩‍👩‍👧'.repeat(200))] })).rejects.toMatchObject({ message: expect.stringMatching(/3000 characters/) });
    expect(records().map((r) => r.text.length)).toEqual(['😀'.repeat(300).length]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, ExpiredToken auth, InvalidRequest rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('bluesky', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const tooLong = await connector()
      .publish({ target, parts: [part('x'.repeat(301))] })
      .catch((e: unknown) => e);
    expect(tooLong).toMatchObject({ kind: 'rejected', status: 400 });
    expect((tooLong as ConnectorError).message).toMatch(/InvalidRequest/);
    const fiveImages = await Promise.all([1, 2, 3, 4, 5].map((n) => image(`${n}.png`)));
    await expect(connector().publish({ target, parts: [part('five', { media: fiveImages })] })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('finds a post whose answer was lost among the repo records, and null for a never-sent text', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('bluesky', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    const rkey = records()[0]?.id;
    expect(found).toEqual({ platformPostId: `at://did:plc:acme/app.bsky.feed.post/${rkey}`, permalink: `https://bsky.app/profile/acme.bsky.social/post/${rkey}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 5000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: null, likes: 9, replies: 3, reposts: 3, clicks: null });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('bluesky')).toEqual([]);
    // getPosts leaves a deleted post out: gone (404), as on the platforms that answer 404.
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth', status: 400 });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
