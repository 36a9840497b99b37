import http from 'node:http';
import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { telegram } from '../../../../tools/sandbox/src/platforms/telegram.js';
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
const media = (name: string, type: 'image' | 'video' = 'image'): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(name), contentType: type === 'image' ? 'image/png' : 'video/mp4' }),
});
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

  it('sends one image with sendPhoto, one video with sendVideo, several as a media group captioned on the first item', async () => {
    await connector().publish({ target, parts: [part('one <photo>', { contentType: 'image', media: [media('a.png')] })] });
    await connector().publish({ target, parts: [part('clip', { contentType: 'video', media: [media('c.mp4', 'video')] })] });
    await connector().publish({ target, parts: [part('album', { contentType: 'image', media: [media('x.png'), media('y.png'), media('z.mp4', 'video')] })] });
    const [photo, video, ...album] = posts();
    expect(photo).toMatchObject({ text: 'one <photo>', details: { kind: 'photo', photo: 'https://media.example/a.png', parse_mode: 'HTML' } });
    expect(video).toMatchObject({ text: 'clip', details: { kind: 'video', video: 'https://media.example/c.mp4' } });
    expect(album.map((p) => [p.details.kind, p.text])).toEqual([
      ['photo', 'album'],
      ['photo', ''],
      ['video', ''],
    ]);
    expect(new Set(album.map((p) => p.details.media_group_id)).size).toBe(1);
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

  it('deletes, reports zero metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('to delete')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(posts()).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
