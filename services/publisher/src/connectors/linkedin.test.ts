// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkedin } from '../../../../tools/sandbox/src/platforms/linkedin.js';
import { linkedinConnector } from './linkedin.js';
import { ConnectorError, type ContentPart, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([linkedin]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const org: TargetAccount = { socialAccountId: 1, platform: 'linkedin', username: 'acme', credentials: { access_token: 'sandbox-acme', author_urn: 'urn:li:organization:1001' } };
const member: TargetAccount = { ...org, credentials: { access_token: 'sandbox-acme', author_urn: 'urn:li:person:abc123' } };
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const connector = () => linkedinConnector(`${sandbox.url}/linkedin`);
const posts = () => sandbox.state.postsOf('linkedin', 'acme');

describe('LinkedIn connector against the Posts API stand-in', () => {
  it('publishes text with the versioned headers, escapes little text, adds the first comment and later parts as comments', async () => {
    const result = await connector().publish({ target: org, parts: [part('Launch (v2) #news', { firstComment: 'link below' }), part('more', { position: 1 })] });
    const [post] = posts();
    expect(post?.id).toMatch(/^urn:li:share:\d+$/);
    expect(post?.text).toBe('Launch \\(v2\\) \\#news');
    expect(post?.details.author).toBe('urn:li:organization:1001');
    expect(post?.details.comments).toEqual([{ actor: 'urn:li:organization:1001', text: 'link below' }, { actor: 'urn:li:organization:1001', text: 'more' }]);
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://www.linkedin.com/feed/update/${post?.id}` });
  });

  it('uploads images, sends documents by asset URN and polls as content.poll', async () => {
    const image = (name: string) => ({ r2Key: `ws/1/${name}`, type: 'image' as const, url: `http://media/${name}`, read: async () => ({ bytes: Buffer.from(`${name}-bytes`), contentType: 'image/png' }) });
    await connector().publish({ target: org, parts: [part('one image', { contentType: 'image', media: [image('a.png')] })] });
    await connector().publish({ target: org, parts: [part('two images', { contentType: 'image', media: [image('a.png'), image('b.png')] })] });
    const doc = { r2Key: 'ws/1/deck.pdf', type: 'document' as const, url: 'http://media/deck.pdf', read: async () => ({ bytes: Buffer.from('pdf'), contentType: 'application/pdf' }) };
    await connector().publish({ target: org, parts: [part('the deck', { contentType: 'document', media: [doc], assetUrn: 'urn:li:document:D123' })] });
    await connector().publish({ target: org, parts: [part('Which one?', { contentType: 'poll', poll: { options: ['a', 'b'], durationMinutes: 4320 } })] });
    const [single, multi, document, poll] = posts();
    const uploaded = [...sandbox.state.media.keys()];
    expect(uploaded).toHaveLength(3);
    expect(single?.details.content).toEqual({ media: { id: uploaded[0] } });
    expect(multi?.details.content).toEqual({ multiImage: { images: [{ id: uploaded[1] }, { id: uploaded[2] }] } });
    expect(sandbox.state.media.get(uploaded[1]!)?.bytes).toBe('a.png-bytes'.length);
    expect(document?.details.content).toEqual({ media: { id: 'urn:li:document:D123', title: 'deck.pdf' } });
    expect(poll?.details.content).toEqual({ poll: { question: 'Which one?', options: [{ text: 'a' }, { text: 'b' }], settings: { duration: 'THREE_DAYS', voteSelectionType: 'SINGLE_VOTE' } } });
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [['server_error', 'transient'], ['rate_limited', 'rate_limited'], ['auth', 'auth'], ['drop_after_accept', 'unknown_outcome']];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('linkedin', fault as never);
      const error = await connector().publish({ target: org, parts: [part(`fault ${fault}`)] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const rejected = await connector().publish({ target: org, parts: [part('')] }).catch((e: unknown) => e);
    expect((rejected as ConnectorError).kind).toBe('rejected');
    expect((rejected as ConnectorError).status).toBe(400);
    const video = { r2Key: 'ws/1/v.mp4', type: 'video' as const, url: 'http://media/v.mp4', read: async () => ({ bytes: Buffer.from('mp4'), contentType: 'video/mp4' }) };
    await expect(connector().publish({ target: org, parts: [part('clip', { contentType: 'video', media: [video] })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().publish({ target: { ...org, credentials: { access_token: 'sandbox-acme' } }, parts: [part('no author')] })).rejects.toMatchObject({ kind: 'auth' });
    expect(posts().map((p) => p.text)).toEqual(['fault drop\\_after\\_accept']);
  });

  it('finds a post whose answer was lost, so it is not published twice', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('linkedin', 'drop_after_accept');
    await expect(connector().publish({ target: org, parts: [part('maybe (sent)')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target: org, parts: [part('maybe (sent)')] }, since);
    expect(found).toEqual({ platformPostId: posts()[0]?.id, permalink: `https://www.linkedin.com/feed/update/${posts()[0]?.id}` });
    expect(await connector().findPublished({ target: org, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target: org, parts: [part('maybe (sent)')] }, new Date(Date.now() + 60_000))).toBeNull();
  });

  it('deletes, reads organization and member metrics, and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target: org, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(org, platformPostId)).toEqual({ impressions: 250, likes: 9, replies: 3, reposts: 2, clicks: 12 });
    const mine = await connector().publish({ target: member, parts: [part('mine', { firstComment: 'hi' })] });
    expect(await connector().fetchMetrics(member, mine.platformPostId)).toEqual({ impressions: 0, likes: 5, replies: 1, reposts: 0, clicks: 0 });
    await connector().delete(org, platformPostId);
    expect(posts().map((p) => p.id)).toEqual([mine.platformPostId]);
    await expect(connector().delete(org, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(org)).toBe(true);
    await expect(connector().validateCredentials({ ...org, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});
