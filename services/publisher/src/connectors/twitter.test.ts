import { PLATFORM_SANDBOXES, startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { twitterConnector } from './twitter.js';
import { ConnectorError, type ContentPart, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox(PLATFORM_SANDBOXES);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'twitter', username: 'acme', credentials: { access_token: 'sandbox-acme' } };
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const connector = () => twitterConnector(`${sandbox.url}/twitter`);

describe('X connector against the X API v2 stand-in', () => {
  it('publishes a thread as a reply chain, with a first comment, and answers the permalink', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 })] });
    const posts = sandbox.state.postsOf('twitter', 'acme');
    expect(posts.map((p) => p.text)).toEqual(['one', 'two', 'link below']);
    expect(posts[1]?.details.reply).toEqual({ in_reply_to_tweet_id: posts[0]?.id });
    expect(posts[2]?.details.reply).toEqual({ in_reply_to_tweet_id: posts[0]?.id });
    expect(result).toEqual({ platformPostId: posts[0]?.id, permalink: `https://x.com/acme/status/${posts[0]?.id}` });
  });

  it('uploads images first and attaches their media ids; sends polls', async () => {
    const image = { r2Key: 'ws/1/a.png', type: 'image' as const, url: 'http://media/a.png', read: async () => ({ bytes: Buffer.from('png-bytes'), contentType: 'image/png' }) };
    await connector().publish({ target, parts: [part('with image', { media: [image] })] });
    await connector().publish({ target, parts: [part('vote', { contentType: 'poll', poll: { options: ['a', 'b'], durationMinutes: 60 } })] });
    const [withImage, poll] = sandbox.state.postsOf('twitter');
    expect((withImage?.details.media as { media_ids: string[] }).media_ids).toHaveLength(1);
    expect(poll?.details.poll).toEqual({ options: ['a', 'b'], duration_minutes: 60 });
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('twitter', fault as never);
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
    expect((rejected as ConnectorError).kind).toBe('rejected');
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('twitter', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(sandbox.state.postsOf('twitter')[0]?.id);
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
  });

  it('finds the post under many newer ones, page by page', async () => {
    const since = new Date(Date.now() - 1000);
    await connector().publish({ target, parts: [part('buried')] });
    for (let i = 0; i < 250; i++) sandbox.state.createPost('twitter', 'acme', `newer ${i}`);
    const found = await connector().findPublished({ target, parts: [part('buried')] }, since);
    expect(found?.platformPostId).toBe(sandbox.state.postsOf('twitter').find((p) => p.text === 'buried')?.id);
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 100, likes: 7, replies: 2, reposts: 4, clicks: 4 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('twitter')).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
