import http from 'node:http';
import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { telegram } from '../../../../tools/sandbox/src/platforms/telegram.js';
import { hostMedia } from './media-host.test-support.js';
import { telegramConnector } from './telegram.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([telegram]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = {
  socialAccountId: 1,
  platform: 'telegram',
  username: 'acme',
  credentials: { access_token: 'sandbox-acme', chat_id: '-1001234567890', channel_username: 'acmenews' },
};
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const media = (name: string, type: MediaItem['type'], bytes: Buffer, contentType: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes, contentType }),
});
const png = (width = 320, height = 240) => makeImage({ format: 'png', width, height });
const mp4 = () => makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1 });
/** A raw Bot API call with a multipart body, as a client would make it. */
const sendRaw = (method: string, form: FormData) =>
  fetch(`${sandbox.url}/telegram/botsandbox-acme/${method}`, { method: 'POST', body: form }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));
const connector = () => telegramConnector(`${sandbox.url}/telegram`);
const posts = () => sandbox.state.postsOf('telegram', 'acme');

describe('Telegram connector against the Bot API stand-in', () => {
  it('sends HTML-escaped text with parse_mode HTML and answers the public channel permalink', async () => {
    const text = 'a < b & c > d <3 <b>not bold</b>';
    const result = await connector().publish({ target, parts: [part(text)] });
    const [post] = posts();
    expect(post?.text).toBe(text);
    expect(post?.details).toMatchObject({ chat_id: '-1001234567890', parse_mode: 'HTML', raw: 'a &lt; b &amp; c &gt; d &lt;3 &lt;b&gt;not bold&lt;/b&gt;' });
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://t.me/acmenews/${post?.id}` });
  });

  it('links private channels through t.me/c and @channels through their name', async () => {
    const privateChannel = { ...target, credentials: { access_token: 'sandbox-acme', chat_id: '-1009876543210' } };
    const result = await connector().publish({ target: privateChannel, parts: [part('private')] });
    expect(result.permalink).toBe(`https://t.me/c/9876543210/${result.platformPostId}`);
    const named = { ...target, credentials: { access_token: 'sandbox-acme', chat_id: '@acmechannel' } };
    expect((await connector().publish({ target: named, parts: [part('named')] })).permalink).toBe(`https://t.me/acmechannel/${posts()[1]?.id}`);
  });

  it('sends later parts as a reply chain and the first comment as a reply to the first message', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 }), part('three', { position: 2 })] });
    const [one, two, three, comment] = posts();
    expect(posts().map((p) => p.text)).toEqual(['one', 'two', 'three', 'link below']);
    expect(result.platformPostId).toBe(one?.id);
    expect(one?.details.reply_to).toBeUndefined();
    expect(two?.details.reply_to).toBe(Number(one?.id));
    expect(three?.details.reply_to).toBe(Number(two?.id));
    expect(comment?.details.reply_to).toBe(Number(one?.id));
  });

  it('uploads one image with sendPhoto, one video with sendVideo, several as a media group captioned on the first item, each recorded as Telegram read it', async () => {
    const [a, x, y, clip] = [await png(320, 240), await png(200, 100), await makeImage({ format: 'jpeg', width: 640, height: 480 }), await mp4()];
    await connector().publish({ target, parts: [part('one <photo>', { contentType: 'image', media: [media('a.png', 'image', a, 'image/png')] })] });
    await connector().publish({ target, parts: [part('clip', { contentType: 'video', media: [media('c.mp4', 'video', clip, 'video/mp4')] })] });
    const album = [media('x.png', 'image', x, 'image/png'), media('y.jpg', 'image', y, 'image/jpeg'), media('z.mp4', 'video', clip, 'video/mp4')];
    await connector().publish({ target, parts: [part('album', { contentType: 'image', media: album })] });
    const [photo, video, ...group] = posts();
    expect(photo).toMatchObject({ text: 'one <photo>', details: { kind: 'photo', parse_mode: 'HTML' } });
    expect(photo?.media).toMatchObject([{ kind: 'image', content_type: 'image/png', width: 320, height: 240, bytes: a.length }]);
    expect(video).toMatchObject({ text: 'clip', details: { kind: 'video' } });
    expect(video?.media).toMatchObject([{ kind: 'video', content_type: 'video/mp4', width: 320, height: 240, video_codec: 'h264' }]);
    expect(group.map((p) => [p.details.kind, p.text])).toEqual([
      ['photo', 'album'],
      ['photo', ''],
      ['video', ''],
    ]);
    expect(group.map((p) => p.media[0])).toMatchObject([{ width: 200, height: 100 }, { content_type: 'image/jpeg', width: 640 }, { kind: 'video' }]);
    expect(new Set(group.map((p) => p.details.media_group_id)).size).toBe(1);
  });

  it("refuses photos and groups Telegram refuses, with Telegram's error shape, and the connector classifies them rejected", async () => {
    const thin = await png(2100, 100); // aspect 21 > 20
    const error = await connector()
      .publish({ target, parts: [part('thin', { media: [media('thin.png', 'image', thin, 'image/png')] })] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect((error as Error).message).toContain('Bad Request: PHOTO_INVALID_DIMENSIONS');
    const huge = await makeImage({ format: 'jpeg', width: 6000, height: 4100 }); // width + height > 10000
    const photo = new FormData();
    photo.append('chat_id', '-1001234567890');
    photo.append('photo', new Blob([new Uint8Array(huge)]), 'huge.jpg');
    expect(await sendRaw('sendPhoto', photo)).toEqual({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: PHOTO_INVALID_DIMENSIONS' } });
    const webm = await makeVideo({ container: 'webm', codec: 'vp9', width: 160, height: 120, seconds: 1 });
    await expect(connector().publish({ target, parts: [part('w', { media: [media('w.webm', 'video', webm, 'video/webm')] })] })).rejects.toMatchObject({ kind: 'rejected', status: 400 });
    const small = await png(64, 64);
    const eleven = Array.from({ length: 11 }, (_, i) => media(`${i}.png`, 'image', small, 'image/png'));
    await expect(connector().publish({ target, parts: [part('many', { media: eleven })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: 'Telegram takes at most 10 photos and videos per message group (11 given)',
    });
    const big = await makeImage({ format: 'png', width: 1900, height: 1900, minBytes: 10 * 1024 * 1024 + 1 });
    await expect(connector().publish({ target, parts: [part('big', { media: [media('big.png', 'image', big, 'image/png')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(posts()).toEqual([]);
  });

  it('refuses in preflight more than 10 photos and videos in one part, and documents', async () => {
    const small = await png(64, 64);
    const eleven = Array.from({ length: 11 }, (_, i) => media(`${i}.png`, 'image', small, 'image/png'));
    await expect(connector().preflight!({ target, parts: [part('x', { media: eleven })] })).rejects.toMatchObject({ kind: 'rejected' });
    const doc = media('d.pdf', 'document', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
    await expect(connector().preflight!({ target, parts: [part('x', { media: [doc] })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: 'documents are not supported by the Telegram connector',
    });
    await expect(connector().preflight!({ target, parts: [part('x', { media: eleven.slice(1) })] })).resolves.toBeUndefined();
  });

  it('downloads a photo given by URL, refusing one over the 5 MB URL limit that an upload could carry', async () => {
    const [ok6, bigPng] = [await png(300, 200), await makeImage({ format: 'png', width: 1400, height: 1400, minBytes: 5 * 1024 * 1024 + 1 })];
    const host = await hostMedia({ 'ok.png': ok6, 'big.png': bigPng });
    try {
      const byUrl = (url: string) => {
        const form = new FormData();
        form.append('chat_id', '-1001234567890');
        form.append('photo', url);
        return sendRaw('sendPhoto', form);
      };
      expect(await byUrl(host.url('ok.png'))).toMatchObject({ status: 200, body: { ok: true, result: { photo: [{ width: 300, height: 200 }] } } });
      expect(bigPng.length).toBeGreaterThan(5 * 1024 * 1024);
      expect(await byUrl(host.url('big.png'))).toEqual({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: failed to get HTTP URL content' } });
      expect(await byUrl(host.url('missing.png'))).toMatchObject({ status: 400 });
      expect(posts().map((p) => p.media[0])).toMatchObject([{ width: 300, height: 200 }]);
    } finally {
      await host.close();
    }
  });

  it('sends polls with sendPoll', async () => {
    await connector().publish({ target, parts: [part('Tea or coffee?', { contentType: 'poll', poll: { options: ['tea', 'coffee'], durationMinutes: 60 } })] });
    expect(posts()[0]).toMatchObject({ text: 'Tea or coffee?', details: { kind: 'poll', poll: { question: 'Tea or coffee?', options: ['tea', 'coffee'] } } });
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, empty text rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('telegram', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const rejected = await connector()
      .publish({ target, parts: [part('  ')] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
    expect((rejected as Error).message).toContain('message text is empty');
    const unknownMessage = await connector()
      .delete(target, '999999')
      .catch((e: unknown) => e);
    expect(unknownMessage).toMatchObject({ kind: 'rejected', status: 400 });
  });

  it('reads retry_after from the body, treats 404 (malformed token) as auth, and never quotes the token', async () => {
    const answers: Record<string, [number, unknown]> = {
      sendMessage: [429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 35', parameters: { retry_after: 35 } }],
      getMe: [404, { ok: false, error_code: 404, description: 'Not Found' }],
    };
    const server = http.createServer((req, res) => {
      const [status, body] = answers[req.url?.split('/').pop() ?? ''] ?? [500, {}];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const real = telegramConnector(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      const secret = { ...target, credentials: { ...target.credentials, access_token: '123456:SECRET-token' } };
      const limited = (await real.publish({ target: secret, parts: [part('x')] }).catch((e: unknown) => e)) as ConnectorError;
      expect(limited).toMatchObject({ kind: 'rate_limited', retryAfterMs: 35_000 });
      const malformed = (await real.validateCredentials(secret).catch((e: unknown) => e)) as ConnectorError;
      expect(malformed.kind).toBe('auth');
      for (const error of [limited, malformed]) {
        expect(error.message).not.toContain('SECRET');
        expect(error.message).toContain('/bot<token>/');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('cannot find a post whose answer was lost: the Bot API has no history, so findPublished is always null', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('telegram', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    expect(posts().map((p) => p.text)).toEqual(['maybe sent']);
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
  });

  it('deletes, reports no metrics (the Bot API has none) and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('to delete')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: null, likes: null, replies: null, reposts: null, clicks: null });
    await connector().delete(target, platformPostId);
    expect(posts()).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reads nothing of a post, so one that no longer exists costs no call and is never retried (the Bot API cannot read a sent message)', async () => {
  const { platformPostId } = await connector().publish({ target, parts: [part('vanishes')] });
  for (const post of posts()) sandbox.state.remove('telegram', post.id);
  const calls = sandbox.state.requests.length;
  expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: null, likes: null, replies: null, reposts: null, clicks: null });
  expect(sandbox.state.requests.length).toBe(calls);
});
