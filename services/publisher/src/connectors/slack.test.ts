import http from 'node:http';
import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slack } from '../../../../tools/sandbox/src/platforms/slack.js';
import { slackConnector } from './slack.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([slack]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'slack', username: 'acme', credentials: { access_token: 'sandbox-acme', channel_id: 'C0123' } };
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const media = (name: string, type: MediaItem['type'], bytes: Buffer, contentType: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes, contentType }),
});
const connector = () => slackConnector(`${sandbox.url}/slack`, { shareWaitMs: 200, shareIntervalMs: 20 });
const posts = () => sandbox.state.postsOf('slack', 'acme');
const permalinkOf = (ts: string | undefined) => `https://acme.slack.com/archives/C0123/p${ts?.replace('.', '')}`;

describe('Slack connector against the Slack Web API stand-in', () => {
  it('posts escaped text to the channel and answers the chat.getPermalink link', async () => {
    const result = await connector().publish({ target, parts: [part('a <b> & c')] });
    const [post] = posts();
    expect(post?.text).toBe('a &lt;b&gt; &amp; c');
    expect(post?.details).toEqual({ channel: 'C0123', blocks: undefined, thread_ts: undefined });
    expect(result).toEqual({ platformPostId: post?.id, permalink: permalinkOf(post?.id) });
  });

  it('posts later parts and the first comment as replies in the thread', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 })] });
    const [one, two, comment] = posts();
    expect(posts().map((p) => p.text)).toEqual(['one', 'two', 'link below']);
    expect(result.platformPostId).toBe(one?.id);
    expect(two?.details.thread_ts).toBe(one?.id);
    expect(comment?.details.thread_ts).toBe(one?.id);
  });

  it('shares images and a video as files of one message through the external upload, the text as its comment', async () => {
    const png = await makeImage({ format: 'png', width: 640, height: 480 });
    const jpeg = await makeImage({ format: 'jpeg', width: 1200, height: 800 });
    const mp4 = await makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 2 });
    const items = [media('a.png', 'image', png, 'image/png'), media('b.jpg', 'image', jpeg, 'image/jpeg'), media('clip.mp4', 'video', mp4, 'video/mp4')];
    const result = await connector().publish({ target, parts: [part('look <here>', { contentType: 'video', media: items })] });
    const [post] = posts();
    expect(post?.text).toBe('look &lt;here&gt;');
    expect(result).toEqual({ platformPostId: post?.id, permalink: permalinkOf(post?.id) });
    expect(post?.details).toMatchObject({ channel: 'C0123', files: [{ title: 'a.png' }, { title: 'b.jpg' }, { title: 'clip.mp4' }] });
    expect(post?.media).toMatchObject([
      { kind: 'image', content_type: 'image/png', width: 640, height: 480, bytes: png.length },
      { kind: 'image', content_type: 'image/jpeg', width: 1200, height: 800, bytes: jpeg.length },
      { kind: 'video', content_type: 'video/mp4', width: 320, height: 240, video_codec: 'h264' },
    ]);
    expect((post?.media[2] as { duration_s: number }).duration_s).toBeCloseTo(2, 0);
  });

  it("shares a thread part's files as a reply (thread_ts of the first message)", async () => {
    const png = await makeImage({ format: 'png', width: 100, height: 100 });
    const result = await connector().publish({ target, parts: [part('first'), part('', { position: 1, media: [media('r.png', 'image', png, 'image/png')] })] });
    const [, reply] = posts();
    expect(reply?.details.thread_ts).toBe(result.platformPostId);
    expect(reply?.media).toMatchObject([{ kind: 'image', width: 100, height: 100 }]);
  });

  it("refuses files the workspace will not take with Slack's error: uploads disabled, not in the channel", async () => {
    const png = await makeImage({ format: 'png', width: 64, height: 64 });
    const withImage = part('x', { media: [media('a.png', 'image', png, 'image/png')] });
    const disabled = { ...target, username: 'nofiles', credentials: { access_token: 'sandbox-nofiles', channel_id: 'C0123' } };
    await expect(connector().publish({ target: disabled, parts: [withImage] })).rejects.toMatchObject({ kind: 'rejected', message: 'files.getUploadURLExternal: file_uploads_disabled' });
    const outside = { ...target, credentials: { access_token: 'sandbox-acme', channel_id: 'C-random-acme' } };
    await expect(connector().publish({ target: outside, parts: [withImage] })).rejects.toMatchObject({ kind: 'rejected', message: 'files.completeUploadExternal: not_in_channel' });
    await expect(connector().publish({ target: outside, parts: [part('text only')] })).rejects.toMatchObject({ kind: 'rejected', message: 'chat.postMessage: not_in_channel' });
    expect(posts()).toEqual([]);
  });

  it('checks in preflight (read-only) that the app is a member of the channel', async () => {
    await expect(connector().preflight!({ target, parts: [part('x')] })).resolves.toBeUndefined();
    const outside = { ...target, credentials: { access_token: 'sandbox-acme', channel_id: 'C-random-acme' } };
    await expect(connector().preflight!({ target: outside, parts: [part('x')] })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('not_in_channel') });
    const missing = { ...target, credentials: { access_token: 'sandbox-acme', channel_id: 'C-missing' } };
    await expect(connector().preflight!({ target: missing, parts: [part('x')] })).rejects.toMatchObject({ kind: 'rejected', message: 'conversations.info: channel_not_found' });
    expect(sandbox.state.requests.filter((r) => r.creates)).toEqual([]);
  });

  it('enforces the upload protocol: length must match the bytes, upload before complete, an expired upload URL fails', async () => {
    const png = await makeImage({ format: 'png', width: 64, height: 64 });
    const api = (method: string, body: unknown) =>
      fetch(`${sandbox.url}/slack/${method}`, { method: 'POST', headers: { authorization: 'Bearer sandbox-acme', 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<{ ok: boolean; error?: string; upload_url?: string; file_id?: string }>,
      );
    expect(await api('files.getUploadURLExternal', { filename: 'a.png', length: 0 })).toEqual({ ok: false, error: 'missing_argument' });
    expect(await api('files.getUploadURLExternal', { filename: 'big.mp4', length: 2 * 1024 ** 3 })).toEqual({ ok: false, error: 'file_upload_size_restricted' });
    const short = await api('files.getUploadURLExternal', { filename: 'a.png', length: png.length + 1 });
    const mismatch = await fetch(short.upload_url!, { method: 'POST', body: png });
    expect(mismatch.status).toBe(400);
    expect(await api('files.completeUploadExternal', { files: [{ id: short.file_id }], channel_id: 'C0123' })).toEqual({ ok: false, error: 'file_not_found' });
    const stale = await api('files.getUploadURLExternal', { filename: 'a.png', length: png.length });
    (sandbox.state.media.get(`slack:${stale.file_id}`)!.extra as { createdAt: number }).createdAt = Date.now() - 11 * 60_000;
    expect((await fetch(stale.upload_url!, { method: 'POST', body: png })).status).toBe(410);
    expect(posts()).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, invalid_auth auth, no_text rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('slack', fault as never);
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
    expect(rejected).toMatchObject({ kind: 'rejected', message: 'chat.postMessage: no_text' });
  });

  it('fails as rejected when the upload URL refuses the bytes (expired), and never completes the upload', async () => {
    const png = await makeImage({ format: 'png', width: 64, height: 64 });
    const calls: string[] = [];
    const server = http.createServer((req, res) => {
      calls.push(req.url ?? '');
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      if (req.url === '/files.getUploadURLExternal') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, upload_url: `${base}/upload/F1`, file_id: 'F1' }));
      else if (req.url === '/upload/F1') res.writeHead(410).end('upload URL expired');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, files: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const real = slackConnector(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      await expect(real.publish({ target, parts: [part('late', { media: [media('a.png', 'image', png, 'image/png')] })] })).rejects.toMatchObject({ kind: 'rejected', status: 410 });
      expect(calls).toEqual(['/files.getUploadURLExternal', '/upload/F1']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads the message ts from files.info while Slack is still sharing the files, within a bounded wait', async () => {
    const png = await makeImage({ format: 'png', width: 64, height: 64 });
    let infoReads = 0;
    const server = http.createServer((req, res) => {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/files.getUploadURLExternal') json({ ok: true, upload_url: `${base}/upload/F1`, file_id: 'F1' });
      else if (req.url === '/upload/F1') res.writeHead(200).end('OK');
      else if (req.url === '/files.completeUploadExternal') json({ ok: true, files: [{ id: 'F1', shares: {} }] });
      else if (req.url?.startsWith('/files.info')) json({ ok: true, file: { id: 'F1', shares: ++infoReads < 3 ? {} : { public: { C0123: [{ ts: '1700000000.000100' }] } } } });
      else json({ ok: true, permalink: 'https://acme.slack.com/archives/C0123/p1700000000000100' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const result = await slackConnector(url, { shareWaitMs: 1000, shareIntervalMs: 10 }).publish({ target, parts: [part('x', { media: [media('a.png', 'image', png, 'image/png')] })] });
      expect(result.platformPostId).toBe('1700000000.000100');
      expect(infoReads).toBe(3);
      infoReads = -1000;
      await expect(slackConnector(url, { shareWaitMs: 50, shareIntervalMs: 10 }).publish({ target, parts: [part('x', { media: [media('a.png', 'image', png, 'image/png')] })] })).rejects.toMatchObject(
        {
          kind: 'unknown_outcome',
        },
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lets a dry run through when an older install cannot read the channel (missing_scope), but not when the token is dead', async () => {
    const answers = [{ ok: true }, { ok: false, error: 'missing_scope' }, { ok: false, error: 'invalid_auth' }];
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers.shift())));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const real = slackConnector(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      await expect(real.validateCredentials(target)).resolves.toBe(true);
      await expect(real.preflight!({ target, parts: [part('x')] })).resolves.toBeUndefined();
      await expect(real.preflight!({ target, parts: [part('x')] })).rejects.toMatchObject({ kind: 'auth' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('maps ok:false answers at HTTP 200: ratelimited with Retry-After, token_revoked and account_inactive as auth', async () => {
    const errors = ['ratelimited', 'token_revoked', 'account_inactive'];
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'retry-after': '30' }).end(JSON.stringify({ ok: false, error: errors.shift() }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const real = slackConnector(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      await expect(real.publish({ target, parts: [part('x')] })).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000 });
      await expect(real.validateCredentials(target)).rejects.toMatchObject({ kind: 'auth', message: 'auth.test: token_revoked' });
      await expect(real.delete(target, '1.2')).rejects.toMatchObject({ kind: 'auth', message: 'chat.delete: account_inactive' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('finds a message whose answer was lost (by its escaped text), so it is not posted twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('slack', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe <sent>')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const ts = posts()[0]?.id;
    expect(await connector().findPublished({ target, parts: [part('maybe <sent>')] }, since)).toEqual({ platformPostId: ts, permalink: permalinkOf(ts) });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe <sent>')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('reads reactions and reply_count, deletes and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first' }), part('second', { position: 1 })] });
    await connector().publish({ target, parts: [part('a later message')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: null, likes: 5, replies: 2, reposts: null, clicks: null });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.find('slack', platformPostId)).toBeUndefined();
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', message: 'chat.delete: message_not_found' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
