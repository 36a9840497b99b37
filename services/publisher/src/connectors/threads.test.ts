// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { threads } from '../../../../tools/sandbox/src/platforms/threads.js';
import { threadsConnector } from './threads.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([threads]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'threads', username: 'acme', credentials: { access_token: 'sandbox-acme', threads_user_id: '25000000000000001' } };
const media = (type: 'image' | 'video', url: string): MediaItem => ({
  r2Key: `ws/1/${url}`,
  type,
  url: `https://cdn.example/${url}`,
  read: async () => ({ bytes: Buffer.from(url), contentType: 'application/octet-stream' }),
});
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const connector = (attempts = 3) => threadsConnector(`${sandbox.url}/threads`, { intervalMs: 1, attempts });
const posts = () => sandbox.state.postsOf('threads', 'acme');

describe('Threads connector against the Threads API stand-in', () => {
  it('publishes a thread as a reply chain, the first comment as a reply to the first post, and reads the permalink', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 }), part('three', { position: 2 })] });
    const [one, two, three, comment] = posts();
    expect(posts().map((p) => p.text)).toEqual(['one', 'two', 'three', 'link below']);
    expect(one?.details).toMatchObject({ owner: '25000000000000001', reply_to_id: undefined, container: { media_type: 'TEXT' } });
    expect(two?.details.reply_to_id).toBe(one?.id);
    expect(three?.details.reply_to_id).toBe(two?.id);
    expect(comment?.details.reply_to_id).toBe(one?.id);
    expect(result.platformPostId).toBe(one?.id);
    expect(result.permalink).toMatch(/^https:\/\/www\.threads\.net\/@acme\/post\/\w+$/);
  });

  it('publishes an image, a video after polling, a carousel and a poll', async () => {
    await connector().publish({ target, parts: [part('image', { contentType: 'image', media: [media('image', 'a.jpg')] })] });
    await connector().publish({ target, parts: [part('video', { contentType: 'video', media: [media('video', 'v.mp4')] })] });
    await connector().publish({ target, parts: [part('carousel', { contentType: 'image', media: [media('image', 'a.jpg'), media('video', 'v.mp4')] })] });
    await connector().publish({ target, parts: [part('Which?', { contentType: 'poll', poll: { options: ['red', 'blue', 'green'], durationMinutes: 1440 } })] });
    const [image, video, carousel, poll] = posts();
    expect(image?.details.container).toEqual({ media_type: 'IMAGE', image_url: 'https://cdn.example/a.jpg' });
    expect(video?.details.container).toEqual({ media_type: 'VIDEO', video_url: 'https://cdn.example/v.mp4' });
    expect(carousel?.details.container).toMatchObject({ media_type: 'CAROUSEL' });
    expect(carousel?.details.children).toEqual([
      { media_type: 'IMAGE', image_url: 'https://cdn.example/a.jpg', is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: 'https://cdn.example/v.mp4', is_carousel_item: 'true' },
    ]);
    expect(poll?.details.container).toEqual({ media_type: 'TEXT', poll_attachment: JSON.stringify({ option_a: 'red', option_b: 'blue', option_c: 'green' }) });
  });

  it('stops polling: a container in ERROR is rejected, one never ready is transient; nothing is published', async () => {
    await expect(connector().publish({ target, parts: [part('bad', { media: [media('video', 'broken.mp4')] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector(1).publish({ target, parts: [part('slow', { media: [media('video', 'v.mp4')] })] })).rejects.toMatchObject({ kind: 'transient' });
    expect(posts()).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, code 190 auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('threads', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    expect(posts().map((p) => p.text)).toEqual(['fault drop_after_accept']);
    const rejected = await connector()
      .publish({ target, parts: [part('')] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
    await expect(connector().publish({ target: { ...target, credentials: { access_token: 'sandbox-acme' } }, parts: [part('no user id')] })).rejects.toMatchObject({ kind: 'auth' });
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('threads', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(posts()[0]?.id);
    expect(found?.permalink).toMatch(/^https:\/\/www\.threads\.net\/@acme\/post\//);
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics', { firstComment: 'first' })] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 480, likes: 33, replies: 1, reposts: 7, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(posts().map((p) => p.text)).toEqual(['first']);
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
