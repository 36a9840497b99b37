import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blueskyConnector } from '../../../services/publisher/src/connectors/bluesky.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from '../../../services/publisher/src/connectors/types.js';
import { startLocalPds, type LocalPds } from '../../support/bluesky-pds.js';

/**
 * The Bluesky connector against the real thing: a PDS (`@atproto/pds`) and a PLC directory (`@did-plc/server`,
 * in memory) started in this process on loopback ports, configured the way `@atproto/dev-env` configures its
 * test network (`TestPlc`, `TestPds`: dev mode, invites off, temp data dirs). The connector publishes; the
 * records are read back with the PDS's own unauthenticated `com.atproto.repo.*` / `com.atproto.sync.*` calls.
 */

const POST = 'app.bsky.feed.post';
/** A real 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let local: LocalPds;
let pdsUrl: string;
let target: TargetAccount;

const xrpc = (method: string, params: Record<string, string> = {}) => local.xrpc(method, params);

beforeAll(async () => {
  local = await startLocalPds();
  pdsUrl = local.url;
  const { accessJwt, did } = await local.createAccount('spa-publisher');
  expect(did).toMatch(/^did:plc:[a-z2-7]{24}$/);
  target = { socialAccountId: 1, platform: 'bluesky', username: 'spa-publisher', credentials: { access_token: accessJwt, did, handle: 'spa-publisher.test' } };
}, 120_000);

afterAll(async () => {
  await local?.stop();
});

type StrongRef = { uri: string; cid: string };
type BlobRef = { $type: 'blob'; ref: { $link: string }; mimeType: string; size: number };
type PostRecord = {
  $type: string;
  text: string;
  createdAt: string;
  facets?: Array<{ index: { byteStart: number; byteEnd: number }; features: Array<{ $type: string; uri: string }> }>;
  embed?: { $type: string; images: Array<{ alt: string; image: BlobRef }> };
  reply?: { root: StrongRef; parent: StrongRef };
};

const connector = () => blueskyConnector(pdsUrl);
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
const rkeyOf = (uri: string) => uri.split('/').pop() ?? '';
const getRecord = (uri: string) => xrpc('com.atproto.repo.getRecord', { repo: target.credentials.did!, collection: POST, rkey: rkeyOf(uri) });
async function record(uri: string): Promise<{ uri: string; cid: string; value: PostRecord }> {
  const answer = await getRecord(uri);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}
async function listPosts(): Promise<Array<{ uri: string; cid: string; value: PostRecord }>> {
  const answer = await xrpc('com.atproto.repo.listRecords', { repo: target.credentials.did!, collection: POST, limit: '100' });
  expect(answer.status).toBe(200);
  return answer.body.records;
}

describe('Bluesky connector against a real PDS', () => {
  it('publishes a text post whose links are facets at the right UTF-8 byte offsets', async () => {
    const text = 'Café ☕ 日本 see https://acme.example/x, and (https://b.example/y?q=1)';
    const since = new Date(Date.now() - 1000);
    const published = await connector().publish({ target, parts: [part(text)] });

    expect(published.platformPostId).toMatch(new RegExp(`^at://${target.credentials.did}/${POST}/[a-z2-7]{13}$`));
    expect(published.permalink).toBe(`https://bsky.app/profile/spa-publisher.test/post/${rkeyOf(published.platformPostId)}`);
    const { value } = await record(published.platformPostId);
    expect(value.$type).toBe(POST);
    expect(value.text).toBe(text);
    expect(value.reply).toBeUndefined();
    expect(value.facets).toEqual([
      { index: { byteStart: 21, byteEnd: 43 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://acme.example/x' }] },
      { index: { byteStart: 50, byteEnd: 73 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://b.example/y?q=1' }] },
    ]);
    const bytes = Buffer.from(value.text);
    expect(value.facets!.map((f) => bytes.subarray(f.index.byteStart, f.index.byteEnd).toString())).toEqual(['https://acme.example/x', 'https://b.example/y?q=1']);

    // findPublished sees it after a lost answer, and not when it predates `since`.
    expect(await connector().findPublished({ target, parts: [part(text)] }, since)).toEqual(published);
    expect(await connector().findPublished({ target, parts: [part(text)] }, new Date(Date.now() + 60_000))).toBeNull();
    expect(await connector().findPublished({ target, parts: [part('never posted')] }, since)).toBeNull();

    // delete: the record is gone.
    await connector().delete(target, published.platformPostId);
    const gone = await getRecord(published.platformPostId);
    expect(gone.status).toBe(400);
    expect(gone.body.error).toBe('RecordNotFound');
    expect(await connector().findPublished({ target, parts: [part(text)] }, since)).toBeNull();
  });

  it('uploads an image as a blob and embeds it as app.bsky.embed.images', async () => {
    const image: MediaItem = { r2Key: 'ws/1/dot.png', type: 'image', url: 'https://media.example/dot.png', read: async () => ({ bytes: PNG, contentType: 'image/png' }) };
    const published = await connector().publish({ target, parts: [part('a dot', { media: [image] })] });

    const { value } = await record(published.platformPostId);
    expect(value.text).toBe('a dot');
    expect(value.embed?.$type).toBe('app.bsky.embed.images');
    expect(value.embed?.images).toHaveLength(1);
    const blob = value.embed!.images[0]!.image;
    expect(blob).toMatchObject({ $type: 'blob', mimeType: 'image/png', size: PNG.length });
    expect(blob.ref.$link).toMatch(/^bafkrei[a-z2-7]+$/);
    // The blob is stored with the record and served back byte for byte.
    const response = await fetch(`${pdsUrl}/xrpc/com.atproto.sync.getBlob?${new URLSearchParams({ did: target.credentials.did!, cid: blob.ref.$link })}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('publishes a 3-part thread as replies {root, parent} and the first comment as a reply to the root', async () => {
    const published = await connector().publish({
      target,
      parts: [part('thread 1/3', { firstComment: 'comment on 1' }), part('thread 2/3', { position: 1 }), part('thread 3/3', { position: 2 })],
    });

    const byText = new Map((await listPosts()).map((r) => [r.value.text, r]));
    const one = byText.get('thread 1/3')!;
    const two = byText.get('thread 2/3')!;
    const three = byText.get('thread 3/3')!;
    const comment = byText.get('comment on 1')!;
    const ref = (r: { uri: string; cid: string }) => ({ uri: r.uri, cid: r.cid });
    expect(published.platformPostId).toBe(one.uri);
    expect(one.value.reply).toBeUndefined();
    expect(two.value.reply).toEqual({ root: ref(one), parent: ref(one) });
    expect(three.value.reply).toEqual({ root: ref(one), parent: ref(two) });
    expect(comment.value.reply).toEqual({ root: ref(one), parent: ref(one) });
    // The refs point at the records as stored (getRecord answers the same cid).
    expect((await record(two.uri)).cid).toBe(two.cid);

    // findPublished ignores replies: only the thread's first post matches its text.
    expect(await connector().findPublished({ target, parts: [part('thread 1/3')] }, new Date(0))).toEqual(published);
    expect(await connector().findPublished({ target, parts: [part('thread 2/3')] }, new Date(0))).toBeNull();
  });

  it('validates credentials: the session token works; a bad or forged one is an auth error', async () => {
    await expect(connector().validateCredentials(target)).resolves.toBe(true);

    const [header, payload] = target.credentials.access_token!.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    for (const token of ['not-a-jwt', forged]) {
      const bad = { ...target, credentials: { ...target.credentials, access_token: token } };
      const error = await connector()
        .validateCredentials(bad)
        .catch((err: unknown) => err);
      expect(error, String(error)).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, (error as ConnectorError).message).toBe('auth');
      // Publishing with it fails the same way, before anything is written.
      await expect(connector().publish({ target: bad, parts: [part('with a bad token')] })).rejects.toMatchObject({ kind: 'auth' });
    }
    expect((await listPosts()).some((r) => r.value.text === 'with a bad token')).toBe(false);
  });
});
