import http from 'node:http';
import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slack } from '../../../../tools/sandbox/src/platforms/slack.js';
import { slackConnector } from './slack.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

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
const image = (name: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type: 'image',
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(name), contentType: 'image/png' }),
});
const connector = () => slackConnector(`${sandbox.url}/slack`);
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

  it('sends images as image blocks after a mrkdwn section, keeping text as the fallback', async () => {
    await connector().publish({ target, parts: [part('look', { contentType: 'image', media: [image('a.png'), image('b.png')] })] });
    expect(posts()[0]?.text).toBe('look');
    expect(posts()[0]?.details.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'look' } },
      { type: 'image', image_url: 'https://media.example/a.png', alt_text: 'a.png' },
      { type: 'image', image_url: 'https://media.example/b.png', alt_text: 'b.png' },
    ]);
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
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 0, likes: 5, replies: 2, reposts: 0, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.find('slack', platformPostId)).toBeUndefined();
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', message: 'chat.delete: message_not_found' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
