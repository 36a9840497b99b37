import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discord } from '../../../../tools/sandbox/src/platforms/discord.js';
import { discordConnector } from './discord.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

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
const media = (name: string, type: MediaItem['type'], bytes: Buffer, contentType: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `http://media/${name}`,
  read: async () => ({ bytes, contentType }),
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

  it('uploads images and a video as multipart files with payload_json, each recorded as Discord read it', async () => {
    const png = await makeImage({ format: 'png', width: 320, height: 200 });
    const gif = await makeImage({ format: 'gif', width: 64, height: 64, frames: 3 });
    const mp4 = await makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1 });
    const items = [media('a.png', 'image', png, 'image/png'), media('b.gif', 'image', gif, 'image/gif'), media('c.mp4', 'video', mp4, 'video/mp4')];
    await connector().publish({ target, parts: [part('pictures', { contentType: 'image', media: items })] });
    const [post] = sandbox.state.postsOf('discord');
    expect(post?.text).toBe('pictures');
    expect(post?.details.multipart).toBe(true);
    expect(post?.details.attachments).toEqual([
      { id: '0', filename: 'a.png', size: png.length, content_type: 'image/png' },
      { id: '1', filename: 'b.gif', size: gif.length, content_type: 'image/gif' },
      { id: '2', filename: 'c.mp4', size: mp4.length, content_type: 'video/mp4' },
    ]);
    expect(post?.media).toMatchObject([
      { kind: 'image', width: 320, height: 200 },
      { kind: 'image', width: 64, height: 64, frames: 3 },
      { kind: 'video', width: 320, height: 240, video_codec: 'h264' },
    ]);
  });

  it('refuses more than 10 files or a file over 10 MiB before sending; the stand-in answers them as Discord does', async () => {
    const png = await makeImage({ format: 'png', width: 32, height: 32 });
    const eleven = Array.from({ length: 11 }, (_, i) => media(`${i}.png`, 'image', png, 'image/png'));
    await expect(connector().publish({ target, parts: [part('many', { media: eleven })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: 'Discord takes at most 10 files per message (11 given)',
    });
    const big = await makeImage({ format: 'png', width: 1900, height: 1900, minBytes: 10 * 1024 * 1024 + 1 });
    expect(big.length).toBeGreaterThan(10 * 1024 * 1024);
    await expect(connector().publish({ target, parts: [part('big', { media: [media('big.png', 'image', big, 'image/png')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    const send = (form: FormData) => fetch(`${sandbox.url}/discord/channels/111/messages`, { method: 'POST', headers: { authorization: 'Bot sandbox-acme' }, body: form });
    const tooBig = new FormData();
    tooBig.append('payload_json', JSON.stringify({ content: 'x' }));
    tooBig.append('files[0]', new Blob([new Uint8Array(big)]), 'big.png');
    const answer = await send(tooBig);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ message: 'Request entity too large', code: 40005 });
    const manyForm = new FormData();
    manyForm.append('payload_json', JSON.stringify({ content: 'x' }));
    for (let i = 0; i < 11; i++) manyForm.append(`files[${i}]`, new Blob([new Uint8Array(png)]), `${i}.png`);
    expect(await (await send(manyForm)).json()).toEqual({
      message: 'Invalid Form Body',
      code: 50035,
      errors: { attachments: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' }] } },
    });
    const orphan = new FormData();
    orphan.append('payload_json', JSON.stringify({ content: 'x', attachments: [{ id: 3, filename: 'x.png' }] }));
    expect((await send(orphan)).status).toBe(400);
    expect(sandbox.state.postsOf('discord')).toEqual([]);
  });

  it('refuses in preflight a message of more than 10 files, images and videos together', async () => {
    const png = await makeImage({ format: 'png', width: 32, height: 32 });
    const mp4 = await makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds: 1 });
    const items = [...Array.from({ length: 9 }, (_, i) => media(`${i}.png`, 'image', png, 'image/png')), media('a.mp4', 'video', mp4, 'video/mp4'), media('b.mp4', 'video', mp4, 'video/mp4')];
    await expect(connector().preflight!({ target, parts: [part('x', { media: items })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: 'Discord takes at most 10 files per message (11 given)',
    });
    await expect(connector().preflight!({ target, parts: [part('x', { media: items.slice(1) })] })).resolves.toBeUndefined();
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
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: null, likes: 7, replies: 2, reposts: null, clicks: null });
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

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
