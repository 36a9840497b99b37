import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mastodon } from '../../../../tools/sandbox/src/platforms/mastodon.js';
import { mastodonConnector, plainText } from './mastodon.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
let target: TargetAccount;
beforeAll(async () => {
  sandbox = await startSandbox([mastodon]);
  target = { socialAccountId: 1, platform: 'mastodon', username: 'acme', credentials: { access_token: 'sandbox-acme', instance_url: `${sandbox.url}/mastodon/` } };
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const media = (name: string, type: MediaItem['type'], contentType: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(`${name}-bytes`), contentType }),
});
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
/** The base URL goes nowhere: every call must go to the account's `instance_url`. */
const connector = () => mastodonConnector('http://127.0.0.1:9', { mediaPollMs: 5 });

describe('Mastodon connector against an instance stand-in', () => {
  it('publishes a thread as replies with in_reply_to_id, a first comment, and answers the Status url', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 })] });
    const posts = sandbox.state.postsOf('mastodon', 'acme');
    expect(posts.map((p) => p.text)).toEqual(['one', 'two', 'link below']);
    expect(posts.map((p) => p.details.in_reply_to_id)).toEqual([null, posts[0]?.id, posts[0]?.id]);
    expect(result).toEqual({ platformPostId: posts[0]?.id, permalink: `${sandbox.url}/mastodon/@acme/${posts[0]?.id}` });
  });

  it('uploads an image and a video through /api/v2/media (waiting while the video processes) and sends a poll', async () => {
    await connector().publish({ target, parts: [part('with media', { media: [media('a.png', 'image', 'image/png'), media('b.mp4', 'video', 'video/mp4')] })] });
    await connector().publish({ target, parts: [part('vote', { contentType: 'poll', poll: { options: ['tea', 'coffee'], durationMinutes: 60 } })] });
    const [withMedia, poll] = sandbox.state.postsOf('mastodon');
    const ids = withMedia?.details.media_ids as string[];
    expect(ids.map((id) => sandbox.state.media.get(id))).toEqual([
      { platform: 'mastodon', bytes: 'a.png-bytes'.length, contentType: 'image/png' },
      { platform: 'mastodon', bytes: 'b.mp4-bytes'.length, contentType: 'video/mp4' },
    ]);
    expect(poll?.details.poll).toEqual({ options: ['tea', 'coffee'], expires_in: 3600 });
  });

  it('sends an Idempotency-Key derived from the request, so a retry after a lost answer does not post twice', async () => {
    sandbox.state.addFault('mastodon', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('retry me')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const retried = await connector().publish({ target, parts: [part('retry me')] });
    const posts = sandbox.state.postsOf('mastodon');
    expect(posts).toHaveLength(1);
    expect(retried.platformPostId).toBe(posts[0]?.id);
    expect(posts[0]?.details.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    await connector().publish({ target: { ...target, socialAccountId: 2 }, parts: [part('retry me')] });
    expect(sandbox.state.postsOf('mastodon')).toHaveLength(2);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 422 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('mastodon', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    await expect(connector().publish({ target, parts: [part('x'.repeat(501))] })).rejects.toMatchObject({ kind: 'rejected', status: 422 });
  });

  it('finds a status whose answer was lost by its rendered text, and null for a never-sent text', async () => {
    const since = new Date(Date.now() - 1000);
    const text = 'Fish & chips <today>\nmenu at https://acme.example/menu?x=1&y=2\n\nsee you';
    sandbox.state.addFault('mastodon', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part(text)] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part(text)] }, since);
    const [post] = sandbox.state.postsOf('mastodon');
    expect(found).toEqual({ platformPostId: post?.id, permalink: `${sandbox.url}/mastodon/@acme/${post?.id}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part(text)] }, new Date(Date.now() + 5000))).toBeNull();
  });

  it('reads the text back out of Mastodon HTML', () => {
    expect(plainText('<p>a &amp; b<br />c</p><p><a href="https://x.example/"><span class="invisible">https://</span><span>x.example/</span></a> &#39;q&#39;</p>')).toBe(
      "a & b\nc\n\nhttps://x.example/ 'q'",
    );
  });

  it('deletes, reads metrics and validates credentials (falling back to the base URL without instance_url)', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 0, likes: 11, replies: 4, reposts: 3, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('mastodon')).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    expect(await mastodonConnector(`${sandbox.url}/mastodon`).validateCredentials({ ...target, credentials: { access_token: 'sandbox-acme' } })).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
