import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discord } from '../../../../tools/sandbox/src/platforms/discord.js';
import { discordConnector } from './discord.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([discord]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = {
  socialAccountId: 1,
  platform: 'discord',
  username: 'acme',
  credentials: { access_token: 'sandbox-acme', channel_id: '111', guild_id: '999' },
};
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const image = (name: string, bytes: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type: 'image',
  url: `http://media/${name}`,
  read: async () => ({ bytes: Buffer.from(bytes), contentType: 'image/png' }),
});
const connector = () => discordConnector(`${sandbox.url}/discord`);

describe('Discord connector against the Discord API v10 stand-in', () => {
  it('posts a message to the channel and answers the channel permalink', async () => {
    const result = await connector().publish({ target, parts: [part('hello')] });
    const [post] = sandbox.state.postsOf('discord', 'acme');
    expect(post?.text).toBe('hello');
    expect(post?.details).toMatchObject({ channel_id: '111', multipart: false });
    expect(post?.details.thread).toBeUndefined();
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://discord.com/channels/999/111/${post?.id}` });
  });

  it('opens a thread on the first message for later parts and the first comment', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 })] });
    const posts = sandbox.state.postsOf('discord', 'acme');
    expect(posts.map((p) => p.text)).toEqual(['one', 'two', 'link below']);
    expect(posts[0]?.details.thread).toEqual({ id: result.platformPostId, name: 'one' });
    expect(posts[1]?.details.channel_id).toBe(result.platformPostId);
    expect(posts[2]?.details.channel_id).toBe(result.platformPostId);
  });

  it('uploads images as multipart files with payload_json', async () => {
    await connector().publish({ target, parts: [part('pictures', { contentType: 'image', media: [image('a.png', 'png-a'), image('b.png', 'png-bb')] })] });
    const [post] = sandbox.state.postsOf('discord');
    expect(post?.text).toBe('pictures');
    expect(post?.details.multipart).toBe(true);
    expect(post?.details.attachments).toEqual([
      { id: '0', filename: 'a.png', size: 5, content_type: 'image/png' },
      { id: '1', filename: 'b.png', size: 6, content_type: 'image/png' },
    ]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, empty message rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('discord', fault as never);
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
    expect((rejected as Error).message).toContain('Cannot send an empty message');
  });

  it('finds a message whose answer was lost, so it is not posted twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('discord', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    const id = sandbox.state.postsOf('discord')[0]?.id;
    expect(found).toEqual({ platformPostId: id, permalink: `https://discord.com/channels/999/111/${id}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('reads reaction and thread counts, deletes, and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first' }), part('second', { position: 1 })] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 0, likes: 7, replies: 2, reposts: 0, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.find('discord', platformPostId)).toBeUndefined();
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

describe('Discord connector through the channel webhook the OAuth connect stores', () => {
  const hooked: TargetAccount = {
    socialAccountId: 2,
    platform: 'discord',
    username: 'acme hook',
    // access_token is the user's OAuth token: not a bot token, never sent to the message endpoints.
    credentials: { access_token: 'oauth-user-token', webhook_id: 'wh-acme', webhook_token: 'whtoken-acme', channel_id: 'chan-acme', guild_id: 'guild-acme' },
  };

  it('executes the webhook with wait=true; later parts and the first comment follow in the channel; metrics and delete through it', async () => {
    const result = await connector().publish({ target: hooked, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 })] });
    const posts = sandbox.state.postsOf('discord', 'acme');
    expect(posts.map((p) => p.text)).toEqual(['one', 'two', 'link below']);
    expect(posts.every((p) => p.details.channel_id === 'chan-acme' && p.details.webhook_id === 'wh-acme')).toBe(true);
    expect(result).toEqual({ platformPostId: posts[0]?.id, permalink: `https://discord.com/channels/guild-acme/chan-acme/${posts[0]?.id}` });
    expect(sandbox.state.requests.filter((r) => r.method === 'POST').every((r) => r.path.startsWith('/discord/webhooks/wh-acme/whtoken-acme'))).toBe(true);
    expect(await connector().fetchMetrics(hooked, result.platformPostId)).toMatchObject({ likes: 7 });
    expect(await connector().findPublished({ target: hooked, parts: [part('one')] }, new Date(0))).toBeNull();
    await connector().delete(hooked, result.platformPostId);
    expect(sandbox.state.postsOf('discord', 'acme').map((p) => p.text)).toEqual(['two', 'link below']);
    expect(await connector().validateCredentials(hooked)).toBe(true);
  });

  it('a deleted webhook or a wrong token is auth, and the token never appears in the error', async () => {
    const gone: TargetAccount = { ...hooked, credentials: { ...hooked.credentials, webhook_id: 'nope' } };
    const wrong: TargetAccount = { ...hooked, credentials: { ...hooked.credentials, webhook_token: 'whtoken-secret-wrong' } };
    for (const t of [gone, wrong]) {
      const err = await connector()
        .publish({ target: t, parts: [part('x')] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorError);
      expect((err as ConnectorError).kind).toBe('auth');
      expect((err as ConnectorError).message).not.toContain(t.credentials.webhook_token!);
    }
    expect(sandbox.state.postsOf('discord')).toHaveLength(0);
  });
});
