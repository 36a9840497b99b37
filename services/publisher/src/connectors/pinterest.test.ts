import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pinterest } from '../../../../tools/sandbox/src/platforms/pinterest.js';
import { pinterestConnector } from './pinterest.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([pinterest]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'pinterest', username: 'acme', credentials: { access_token: 'sandbox-acme', board_id: 'board-1' } };
const image = (name: string, type: MediaItem['type'] = 'image'): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(name), contentType: 'image/png' }),
});
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'image', position: 0, media: [image('a.png')], ...extra });
const connector = () => pinterestConnector(`${sandbox.url}/pinterest`);

describe('Pinterest connector against the API v5 stand-in', () => {
  it('creates an image pin on the board, with title, description and link, and answers the permalink', async () => {
    const body = 'Spring menu\nAll the new dishes at https://acme.example/menu today';
    const result = await connector().publish({ target, parts: [part(body)] });
    const [pin] = sandbox.state.postsOf('pinterest', 'acme');
    expect(pin?.text).toBe(body);
    expect(pin?.details).toMatchObject({
      board_id: 'board-1',
      title: 'Spring menu',
      link: 'https://acme.example/menu',
      media_source: { source_type: 'image_url', url: 'https://media.example/a.png' },
    });
    expect(result).toEqual({ platformPostId: pin?.id, permalink: `https://www.pinterest.com/pin/${pin?.id}/` });
  });

  it('sends several images as a multiple_image_urls carousel', async () => {
    await connector().publish({ target, parts: [part('carousel', { media: [image('a.png'), image('b.png'), image('c.png')] })] });
    expect(sandbox.state.postsOf('pinterest')[0]?.details.media_source).toEqual({
      source_type: 'multiple_image_urls',
      items: [{ url: 'https://media.example/a.png' }, { url: 'https://media.example/b.png' }, { url: 'https://media.example/c.png' }],
      index: 0,
    });
  });

  it('refuses, without calling Pinterest, a pin without an image or with a video', async () => {
    await expect(connector().publish({ target, parts: [part('no media', { media: [] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().publish({ target, parts: [part('video', { media: [image('v.mp4', 'video')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(sandbox.state.postsOf('pinterest')).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('pinterest', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const rejected = await connector()
      .publish({ target, parts: [part('x'.repeat(501))] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
  });

  it('finds a pin whose answer was lost, so it is not published twice', async () => {
    const since = new Date();
    sandbox.state.addFault('pinterest', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(sandbox.state.postsOf('pinterest')[0]?.id);
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 5000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 120, likes: 8, replies: 2, reposts: 5, clicks: 3 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('pinterest')).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
