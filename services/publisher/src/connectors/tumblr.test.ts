import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tumblr } from '../../../../tools/sandbox/src/platforms/tumblr.js';
import { tumblrConnector } from './tumblr.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

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
const media = (name: string, type: MediaItem['type'] = 'image'): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(name), contentType: 'image/png' }),
});
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

  it('adds image blocks by URL and appends later parts as more blocks of the same post', async () => {
    await connector().publish({ target, parts: [part('look', { contentType: 'image', media: [media('a.png'), media('b.png')] }), part('and more', { position: 1 })] });
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.details.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', media: [{ url: 'https://media.example/a.png' }] },
      { type: 'image', media: [{ url: 'https://media.example/b.png' }] },
      { type: 'text', text: 'and more' },
    ]);
  });

  it('uses a hostname blog identifier as the permalink host', async () => {
    const hosted = { ...target, credentials: { access_token: 'sandbox-acme', blog: 'acme.tumblr.com' } };
    const result = await connector().publish({ target: hosted, parts: [part('hosted')] });
    expect(result.permalink).toBe(`https://acme.tumblr.com/post/${posts()[0]?.id}`);
  });

  it('refuses first comments and videos without calling Tumblr', async () => {
    await expect(connector().publish({ target, parts: [part('x', { firstComment: 'c' })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().publish({ target, parts: [part('x', { media: [media('v.mp4', 'video')] })] })).rejects.toMatchObject({ kind: 'rejected' });
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
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 0, likes: 12, replies: 0, reposts: 0, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(posts()).toEqual([]);
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired', blog: 'acme' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
