// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { youtube } from '../../../../tools/sandbox/src/platforms/youtube.js';
import { youtubeConnector } from './youtube.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([youtube]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'youtube', username: 'acme', credentials: { access_token: 'sandbox-acme' } };
const clip: MediaItem = { r2Key: 'ws/1/clip.mp4', type: 'video', url: 'http://media/clip.mp4', read: async () => ({ bytes: Buffer.from('0123456789'), contentType: 'video/mp4' }) };
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'video', position: 0, media: [clip], ...extra });
const connector = () => youtubeConnector(`${sandbox.url}/youtube`);
const videos = () => sandbox.state.postsOf('youtube', 'acme');

describe('YouTube connector against the Data API v3 stand-in', () => {
  it('uploads the video with the resumable protocol, title from the first line, and comments the first comment and later parts', async () => {
    const text = 'Our <new> launch video\nEverything about it.';
    const result = await connector().publish({ target, parts: [part(text, { firstComment: 'Links below' }), part('Part two', { position: 1, media: [] })] });
    const [video] = videos();
    expect(video?.text).toBe(text);
    expect(video?.details).toMatchObject({ title: 'Our new launch video', description: text, categoryId: '22', privacyStatus: 'public', bytes: 10, contentType: 'video/mp4', channelId: 'UCacme' });
    expect(video?.details.comments).toEqual(['Links below', 'Part two']);
    expect(result).toEqual({ platformPostId: video?.id, permalink: `https://www.youtube.com/watch?v=${video?.id}` });
  });

  it('refuses a post without a video before calling YouTube', async () => {
    await expect(connector().publish({ target, parts: [part('text only', { contentType: 'text', media: [] })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(videos()).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown, spent quota rate limited', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('youtube', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    expect(videos().map((v) => v.text)).toEqual(['fault drop_after_accept']);
    const rejected = await connector()
      .publish({ target, parts: [part('')] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
    const quota = await connector()
      .publish({ target: { ...target, credentials: { access_token: 'sandbox-noquota' } }, parts: [part('no quota left')] })
      .catch((e: unknown) => e);
    expect(quota).toMatchObject({ kind: 'rate_limited', status: 403 });
  });

  it('finds a video whose upload answer was lost, so it is not uploaded twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('youtube', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const id = videos()[0]?.id;
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, since)).toEqual({ platformPostId: id, permalink: `https://www.youtube.com/watch?v=${id}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first!' })] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 1234, likes: 56, replies: 1, reposts: 0, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(videos()).toEqual([]);
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    await expect(connector().fetchMetrics(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
