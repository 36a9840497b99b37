import http from 'node:http';
// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkedin } from '../../../../tools/sandbox/src/platforms/linkedin.js';
import { linkedinConnector } from './linkedin.js';
import { linkedinUploads } from './linkedin-uploads.js';
import { ConnectorError, type ContentPart, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([linkedin]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.state.reset();
  uploadedBy.clear();
});

const org: TargetAccount = { socialAccountId: 1, platform: 'linkedin', username: 'acme', credentials: { access_token: 'sandbox-acme', author_urn: 'urn:li:organization:1001' } };
const member: TargetAccount = { ...org, socialAccountId: 2, credentials: { access_token: 'sandbox-acme', author_urn: 'urn:li:person:acme' } };
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'text', position: 0, media: [], ...extra });
/** Stands for the media service's record of uploads made through the API (URN → social account). */
const uploadedBy = new Map<string, number>();
const connector = () => linkedinConnector(`${sandbox.url}/linkedin`, { uploaderOf: async (urn) => uploadedBy.get(urn) }, { videoWaitMs: 200, videoIntervalMs: 20 });
const uploads = () => linkedinUploads(`${sandbox.url}/linkedin`);
/** An upload through the API: LinkedIn has the asset, the record names the account. */
async function uploadFor(target: TargetAccount, kind: 'image' | 'video', bytes: Buffer) {
  const { urn, owner } = await uploads().upload(target, kind, bytes);
  uploadedBy.set(urn, target.socialAccountId);
  return { urn, owner };
}
const posts = () => sandbox.state.postsOf('linkedin', 'acme');
/** A PDF of `pages` pages, as LinkedIn's document converter counts them (one `/Type /Page` object each). */
const pdf = (pages: number) =>
  Buffer.from(
    `%PDF-1.4\n${Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj\n`).join('')}2 0 obj << /Type /Pages /Count ${pages} >> endobj\n%%EOF\n`,
    'latin1',
  );
/** A real MP4 padded with trailing bytes to `size` (players and ffprobe ignore what follows the file's boxes). */
const paddedVideo = async (seconds: number, size: number) => {
  const v = await makeVideo({ container: 'mp4', codec: 'h264', width: 320, height: 240, seconds });
  return Buffer.concat([v, Buffer.alloc(Math.max(0, size - v.length))]);
};
const item = (name: string, type: 'image' | 'video' | 'document', bytes: Buffer, contentType: string) => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `http://media/${name}`,
  read: async () => ({ bytes, contentType }),
});

describe('LinkedIn connector against the Posts API stand-in', () => {
  it('publishes text with the versioned headers, escapes little text, adds the first comment and later parts as comments', async () => {
    const result = await connector().publish({ target: org, parts: [part('Launch (v2) #news', { firstComment: 'link below' }), part('more', { position: 1 })] });
    const [post] = posts();
    expect(post?.id).toMatch(/^urn:li:share:\d+$/);
    expect(post?.text).toBe('Launch \\(v2\\) \\#news');
    expect(post?.details.author).toBe('urn:li:organization:1001');
    expect(post?.details.comments).toEqual([
      { actor: 'urn:li:organization:1001', text: 'link below' },
      { actor: 'urn:li:organization:1001', text: 'more' },
    ]);
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://www.linkedin.com/feed/update/${post?.id}` });
  });

  it('uploads images and documents referenced by r2_key, and polls as content.poll; each post records what it carried', async () => {
    const [a, b] = [await makeImage({ format: 'png', width: 640, height: 480 }), await makeImage({ format: 'jpeg', width: 1200, height: 627 })];
    await connector().publish({ target: org, parts: [part('one image', { contentType: 'image', media: [item('a.png', 'image', a, 'image/png')] })] });
    await connector().publish({ target: org, parts: [part('two images', { contentType: 'image', media: [item('a.png', 'image', a, 'image/png'), item('b.jpg', 'image', b, 'image/jpeg')] })] });
    const deck = pdf(3);
    await connector().publish({ target: org, parts: [part('the deck', { contentType: 'document', media: [item('deck.pdf', 'document', deck, 'application/pdf')] })] });
    await connector().publish({ target: org, parts: [part('Which one?', { contentType: 'poll', poll: { options: ['a', 'b'], durationMinutes: 4320 } })] });
    const [single, multi, document, poll] = posts();
    const uploaded = [...sandbox.state.media.keys()];
    expect(uploaded).toHaveLength(4);
    expect(single?.details.content).toEqual({ media: { id: uploaded[0] } });
    expect(single?.media).toMatchObject([{ kind: 'image', content_type: 'image/png', width: 640, height: 480, bytes: a.length }]);
    expect(multi?.details.content).toEqual({ multiImage: { images: [{ id: uploaded[1] }, { id: uploaded[2] }] } });
    expect(multi?.media).toMatchObject([{ content_type: 'image/png' }, { content_type: 'image/jpeg', width: 1200, height: 627 }]);
    expect(uploaded[3]).toMatch(/^urn:li:document:/);
    expect(document?.details.content).toEqual({ media: { id: uploaded[3], title: 'deck.pdf' } });
    expect(document?.media).toEqual([{ kind: 'document', content_type: 'application/pdf', bytes: deck.length }]);
    expect(poll?.details.content).toEqual({ poll: { question: 'Which one?', options: [{ text: 'a' }, { text: 'b' }], settings: { duration: 'THREE_DAYS', voteSelectionType: 'SINGLE_VOTE' } } });
    expect(poll?.media).toEqual([]);
  });

  it('uploads a video given as media in parts, waits until LinkedIn has processed it, then posts it', async () => {
    const clip = await paddedVideo(4, 5 * 1024 * 1024); // two parts
    await connector().publish({ target: member, parts: [part('clip', { contentType: 'video', media: [item('clip.mp4', 'video', clip, 'video/mp4')] })] });
    const [post] = posts();
    expect((post?.details.content as { media: { id: string } }).media.id).toMatch(/^urn:li:video:/);
    expect(post?.media).toMatchObject([{ kind: 'video', content_type: 'video/mp4', width: 320, height: 240, bytes: clip.length }]);
    const statusReads = sandbox.state.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/linkedin/rest/videos/'));
    expect(statusReads.length).toBeGreaterThanOrEqual(1);
  });

  it("refuses a video whose processing fails (under 3 seconds) with LinkedIn's reason, before any post", async () => {
    const short = await paddedVideo(1, 100 * 1024);
    const error = await connector()
      .publish({ target: member, parts: [part('short', { contentType: 'video', media: [item('short.mp4', 'video', short, 'video/mp4')] })] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected' });
    expect((error as Error).message).toMatch(/PROCESSING_FAILED: video duration 1(\.\d+)?s is below the minimum of 3s/);
    const png = await makeImage({ format: 'png', width: 64, height: 64 });
    await expect(
      connector().publish({ target: member, parts: [part('mixed', { media: [item('s.mp4', 'video', short, 'video/mp4'), item('a.png', 'image', png, 'image/png')] })] }),
    ).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('one video only'),
    });
    expect(posts()).toEqual([]);
  });

  it("refuses what LinkedIn's processing fails (a WebP image, a 301-page document), with the reason, and more than 20 images up front", async () => {
    const webp = await makeImage({ format: 'webp', width: 400, height: 300 });
    const refused = await connector()
      .publish({ target: org, parts: [part('webp', { media: [item('a.webp', 'image', webp, 'image/webp')] })] })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'rejected', status: 400 });
    expect((refused as Error).message).toContain('PROCESSING_FAILED: unsupported media type image/webp');
    const long = await connector()
      .publish({ target: org, parts: [part('long deck', { media: [item('long.pdf', 'document', pdf(301), 'application/pdf')] })] })
      .catch((e: unknown) => e);
    expect((long as Error).message).toContain('the document has 301 pages; at most 300 are accepted');
    const png = await makeImage({ format: 'png', width: 64, height: 64 });
    const many = Array.from({ length: 21 }, (_, i) => item(`${i}.png`, 'image', png, 'image/png'));
    await expect(connector().publish({ target: org, parts: [part('many', { media: many })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: 'linkedin: a multi-image post takes at most 20 images (21 given)',
    });
    const mixed = [item('a.png', 'image', png, 'image/png'), item('d.pdf', 'document', pdf(1), 'application/pdf')];
    await expect(connector().publish({ target: org, parts: [part('mixed', { media: mixed })] })).rejects.toMatchObject({ kind: 'rejected' });
    expect(posts()).toEqual([]);
  });

  it('refuses in preflight what would be lost: media on a later part (a comment), more than 20 images', async () => {
    const png = await makeImage({ format: 'png', width: 64, height: 64 });
    const image = item('a.png', 'image', png, 'image/png');
    await expect(connector().preflight!({ target: org, parts: [part('one'), part('two', { position: 1, media: [image] })] })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('take text only'),
    });
    await expect(connector().publish({ target: org, parts: [part('one'), part('two', { position: 1, media: [image] })] })).rejects.toMatchObject({ kind: 'rejected' });
    const many = Array.from({ length: 21 }, () => image);
    await expect(connector().preflight!({ target: org, parts: [part('many', { media: many })] })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(connector().preflight!({ target: org, parts: [part('fine', { media: many.slice(1) }), part('a comment', { position: 1 })] })).resolves.toBeUndefined();
    expect(posts()).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('linkedin', fault as never);
      const error = await connector()
        .publish({ target: org, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const rejected = await connector()
      .publish({ target: org, parts: [part('')] })
      .catch((e: unknown) => e);
    expect((rejected as ConnectorError).kind).toBe('rejected');
    expect((rejected as ConnectorError).status).toBe(400);
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
    expect(await connector().fetchMetrics(member, mine.platformPostId)).toEqual({ impressions: null, likes: 5, replies: 1, reposts: null, clicks: null });
    await connector().delete(org, platformPostId);
    expect(posts().map((p) => p.id)).toEqual([mine.platformPostId]);
    await expect(connector().delete(org, platformPostId)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    expect(await connector().validateCredentials(org)).toBe(true);
    await expect(connector().validateCredentials({ ...org, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

describe('LinkedIn uploads (Images and Videos APIs) and posts that use an uploaded asset', () => {
  // A plain loop (see linkedin-uploads.test.ts: Array.from over megabytes blocks the in-process sandbox).
  const bytes = (n: number) => {
    const b = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) b[i] = (i * 7) % 256;
    return b;
  };

  it('uploads a video in LinkedIn byte ranges, finalizes with the ETags, and a post by the owner uses it', async () => {
    const size = 9 * 1024 * 1024 + 5; // three parts: 4 MiB, 4 MiB, 1 MiB + 5 bytes
    const { urn, owner } = await uploadFor(member, 'video', await paddedVideo(4, size));
    expect(urn).toMatch(/^urn:li:video:/);
    expect(owner).toBe('urn:li:person:acme');
    expect(sandbox.state.media.get(urn)).toMatchObject({ platform: 'linkedin', bytes: size, contentType: 'video/mp4', status: 'AVAILABLE' });
    await connector().publish({ target: member, parts: [part('watch this', { contentType: 'video', assetUrn: urn })] });
    expect(posts()[0]?.details.content).toEqual({ media: { id: urn } });
    expect(posts()[0]?.media).toMatchObject([{ kind: 'video', content_type: 'video/mp4', width: 320, height: 240, video_codec: 'h264', bytes: size }]);
    expect((posts()[0]?.media[0] as { duration_s: number }).duration_s).toBeCloseTo(4, 0);
  });

  it('refuses a video LinkedIn cannot take: under 3 seconds (processing fails) or under 75 KB (initializeUpload)', async () => {
    const { urn } = await uploadFor(member, 'video', await paddedVideo(1, 100 * 1024));
    const error = await connector()
      .publish({ target: member, parts: [part('too short', { contentType: 'video', assetUrn: urn })] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect((error as Error).message).toMatch(/PROCESSING_FAILED: video duration 1(\.\d+)?s is below the minimum of 3s/);
    const tiny = await makeVideo({ container: 'mp4', codec: 'h264', width: 64, height: 64, seconds: 3, fps: 5, audio: false });
    expect(tiny.length).toBeLessThan(75 * 1024);
    await expect(uploads().upload(member, 'video', tiny)).rejects.toMatchObject({ kind: 'rejected', status: 400 });
    expect(posts()).toEqual([]);
  });

  it('uploads an image for an organization: the owner is the organization', async () => {
    const { urn, owner } = await uploadFor(org, 'image', await makeImage({ format: 'jpeg', width: 300, height: 300 }));
    expect([urn.startsWith('urn:li:image:'), owner]).toEqual([true, 'urn:li:organization:1001']);
    await connector().publish({ target: org, parts: [part('look', { contentType: 'image', assetUrn: urn })] });
    expect(posts()[0]?.details.content).toEqual({ media: { id: urn } });
  });

  it("uses an asset only for the account that uploaded it; refuses unrecorded URNs and uploads for someone else's member URN", async () => {
    const { urn } = await uploadFor(org, 'image', bytes(10));
    const other = await connector()
      .publish({ target: member, parts: [part('not mine', { assetUrn: urn })] })
      .catch((e: unknown) => e);
    expect(other).toMatchObject({ kind: 'rejected' });
    expect((other as Error).message).toContain(`asset_urn ${urn} was uploaded by social account 1, not by this one (2)`);
    // Uploaded at LinkedIn by this very account, but not through the API: no record, not used.
    const { urn: outside } = await uploads().upload(member, 'image', bytes(10));
    const unrecorded = await connector()
      .publish({ target: member, parts: [part('outside', { assetUrn: outside })] })
      .catch((e: unknown) => e);
    expect((unrecorded as Error).message).toContain('was not uploaded through this API');
    // Without the records nothing can be checked, so no URN is used.
    await expect(linkedinConnector(`${sandbox.url}/linkedin`).publish({ target: org, parts: [part('unchecked', { assetUrn: urn })] })).rejects.toMatchObject({ kind: 'rejected' });
    const stranger: TargetAccount = { ...member, credentials: { access_token: 'sandbox-acme', author_urn: 'urn:li:person:someone-else' } };
    await expect(uploads().upload(stranger, 'image', bytes(10))).rejects.toMatchObject({ kind: 'rejected', status: 403 });
    expect(posts()).toEqual([]);
  });

  it('classifies upload failures: bad token auth, a missing author auth', async () => {
    await expect(uploads().upload({ ...member, credentials: { ...member.credentials, access_token: 'expired' } }, 'video', bytes(10))).rejects.toMatchObject({ kind: 'auth' });
    await expect(uploads().upload({ ...member, credentials: { access_token: 'sandbox-acme' } }, 'image', bytes(10))).rejects.toMatchObject({ kind: 'auth' });
    expect(sandbox.state.media.size).toBe(0);
  });
});

describe('the LinkedIn video upload stand-in checks what LinkedIn checks', () => {
  const api = (path: string, body: unknown) =>
    fetch(`${sandbox.url}/linkedin${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-acme', 'linkedin-version': '202608', 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('refuses a part of the wrong length, a finalize without every ETag in order, and a post with an unfinalized video', async () => {
    const file = await paddedVideo(3, 5 * 1024 * 1024);
    const init = (await (await api('/rest/videos?action=initializeUpload', { initializeUploadRequest: { owner: 'urn:li:person:acme', fileSizeBytes: 5 * 1024 * 1024 } })).json()) as {
      value: { video: string; uploadToken: string; uploadInstructions: Array<{ uploadUrl: string; firstByte: number; lastByte: number }> };
    };
    const [first, second] = init.value.uploadInstructions;
    expect([first?.firstByte, first?.lastByte, second?.firstByte, second?.lastByte]).toEqual([0, 4 * 1024 * 1024 - 1, 4 * 1024 * 1024, 5 * 1024 * 1024 - 1]);
    expect((await fetch(second!.uploadUrl, { method: 'PUT', body: Buffer.alloc(10) })).status).toBe(400);
    expect((await fetch(second!.uploadUrl.replace(/sig=\w+/, 'sig=forged'), { method: 'PUT', body: file.subarray(4 * 1024 * 1024) })).status).toBe(404);
    const etag2 = (await fetch(second!.uploadUrl, { method: 'PUT', body: file.subarray(4 * 1024 * 1024) })).headers.get('etag');
    const finalize = (ids: unknown[]) => api('/rest/videos?action=finalizeUpload', { finalizeUploadRequest: { video: init.value.video, uploadToken: init.value.uploadToken, uploadedPartIds: ids } });
    expect((await finalize([etag2])).status).toBe(400);
    const etag1 = (await fetch(first!.uploadUrl, { method: 'PUT', body: file.subarray(0, 4 * 1024 * 1024) })).headers.get('etag');
    expect((await finalize([etag2, etag1])).status).toBe(400);
    const post = {
      author: 'urn:li:person:acme',
      commentary: 'early',
      visibility: 'PUBLIC',
      lifecycleState: 'PUBLISHED',
      distribution: { feedDistribution: 'MAIN_FEED' },
      content: { media: { id: init.value.video } },
    };
    expect((await api('/rest/posts', post)).status).toBe(400);
    expect((await finalize([etag1, etag2])).status).toBe(200);
    expect((await api('/rest/posts', post)).status).toBe(201);
    expect((await api('/rest/posts', { ...post, author: 'urn:li:organization:1' })).status).toBe(403);
  });
});

describe('a LinkedIn answer the uploader cannot follow', () => {
  it('refuses upload instructions that do not cover the file in order, before sending any byte', async () => {
    const puts: string[] = [];
    const server = http.createServer((req, res) => {
      if (req.method === 'PUT') puts.push(req.url ?? '');
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const value = {
        video: 'urn:li:video:C5Fgap',
        uploadToken: '',
        uploadInstructions: [
          { uploadUrl: `${base}/part/0`, firstByte: 0, lastByte: 99 },
          { uploadUrl: `${base}/part/1`, firstByte: 101, lastByte: 199 },
        ],
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ value }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const gap = linkedinUploads(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      await expect(gap.upload(member, 'video', Buffer.alloc(200))).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('do not cover the 200 bytes') });
      expect(puts).toEqual([]);
    } finally {
      server.close();
    }
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  for (const request of [
    { target: org, parts: [part('vanishes')] },
    { target: member, parts: [part('mine vanishes')] },
  ])
    await expectGoneOnceRemoved(sandbox, connector(), request);
});
