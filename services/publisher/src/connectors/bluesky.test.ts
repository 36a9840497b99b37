import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bluesky } from '../../../../tools/sandbox/src/platforms/bluesky.js';
import { blueskyConnector, linkFacets } from './bluesky.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
let target: TargetAccount;
beforeAll(async () => {
  sandbox = await startSandbox([bluesky]);
  target = {
    socialAccountId: 1,
    platform: 'bluesky',
    username: 'acme',
    credentials: { access_token: 'sandbox-acme', did: 'did:plc:acme', handle: 'acme.bsky.social', pds_url: `${sandbox.url}/bluesky` },
  };
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

type Record = { text: string; facets?: unknown; embed?: { images: Array<{ image: { ref: { $link: string } } }> }; reply?: unknown };
const image = (name: string): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type: 'image',
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(`${name}-bytes`), contentType: 'image/png' }),
});
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
/** The base URL goes nowhere: every call must go to the account's `pds_url`. */
const connector = () => blueskyConnector('http://127.0.0.1:9');
const records = () => sandbox.state.postsOf('bluesky', 'acme').map((p) => ({ ...p, record: p.details.record as Record }));

describe('Bluesky connector against a PDS stand-in', () => {
  it('publishes a thread as replies {root, parent}, a first comment replying to the root, and answers the at:// URI and bsky.app permalink', async () => {
    const result = await connector().publish({ target, parts: [part('one', { firstComment: 'link below' }), part('two', { position: 1 }), part('three', { position: 2 })] });
    const [one, two, three, comment] = records();
    const ref = (p: typeof one) => ({ uri: p?.details.uri, cid: p?.details.cid });
    expect([one, two, three, comment].map((p) => p?.text)).toEqual(['one', 'two', 'three', 'link below']);
    expect(one?.record.reply).toBeUndefined();
    expect(two?.record.reply).toEqual({ root: ref(one), parent: ref(one) });
    expect(three?.record.reply).toEqual({ root: ref(one), parent: ref(two) });
    expect(comment?.record.reply).toEqual({ root: ref(one), parent: ref(one) });
    expect(result).toEqual({ platformPostId: `at://did:plc:acme/app.bsky.feed.post/${one?.id}`, permalink: `https://bsky.app/profile/acme.bsky.social/post/${one?.id}` });
    expect(one?.id).toMatch(/^[2-7a-z]{13}$/);
  });

  it('marks links with facets at UTF-8 byte offsets, after multi-byte text and without trailing punctuation', async () => {
    const text = 'Café ☕ 日本 see https://acme.example/x, and (https://b.example/y)';
    await connector().publish({ target, parts: [part(text)] });
    const [post] = records();
    expect(post?.record.facets).toEqual([
      { index: { byteStart: 21, byteEnd: 43 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://acme.example/x' }] },
      { index: { byteStart: 50, byteEnd: 69 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://b.example/y' }] },
    ]);
    expect(Buffer.from(text).subarray(21, 43).toString()).toBe('https://acme.example/x');
    expect(linkFacets('no links here')).toEqual([]);
  });

  it('uploads images as blobs and embeds them as app.bsky.embed.images', async () => {
    await connector().publish({ target, parts: [part('pictures', { contentType: 'image', media: [image('a.png'), image('b.png')] })] });
    const embed = records()[0]?.record.embed;
    expect(embed).toMatchObject({ $type: 'app.bsky.embed.images', images: [{ alt: '' }, { alt: '' }] });
    expect(embed?.images.map((i) => sandbox.state.media.get(i.image.ref.$link))).toEqual([
      { platform: 'bluesky', bytes: 'a.png-bytes'.length, contentType: 'image/png' },
      { platform: 'bluesky', bytes: 'b.png-bytes'.length, contentType: 'image/png' },
    ]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, ExpiredToken auth, InvalidRequest rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('bluesky', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const tooLong = await connector()
      .publish({ target, parts: [part('x'.repeat(301))] })
      .catch((e: unknown) => e);
    expect(tooLong).toMatchObject({ kind: 'rejected', status: 400 });
    expect((tooLong as ConnectorError).message).toMatch(/InvalidRequest/);
    const fiveImages = [1, 2, 3, 4, 5].map((n) => image(`${n}.png`));
    await expect(connector().publish({ target, parts: [part('five', { media: fiveImages })] })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('finds a post whose answer was lost among the repo records, and null for a never-sent text', async () => {
    const since = new Date(Date.now() - 1000);
    sandbox.state.addFault('bluesky', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [part('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [part('maybe sent')] }, since);
    const rkey = records()[0]?.id;
    expect(found).toEqual({ platformPostId: `at://did:plc:acme/app.bsky.feed.post/${rkey}`, permalink: `https://bsky.app/profile/acme.bsky.social/post/${rkey}` });
    expect(await connector().findPublished({ target, parts: [part('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('maybe sent')] }, new Date(Date.now() + 5000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 0, likes: 9, replies: 3, reposts: 3, clicks: 0 });
    await connector().delete(target, platformPostId);
    expect(sandbox.state.postsOf('bluesky')).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth', status: 400 });
  });
});
