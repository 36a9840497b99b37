import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { LinkedInAssetKind, LinkedInAssetsServiceClient } from '@spa/contracts/media/v1/linkedin_assets';
import { createClient, type PromiseClient } from '@spa/grpc';
import { createWorkspace, freshClientAddress, request, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { base64Body, bigJpeg, HTML, jpeg, mp4, png, SVG } from '../support/media-files.js';

let stack: Stack;
let ws: TestWorkspace;
let assets: PromiseClient<LinkedInAssetsServiceClient>;
beforeAll(async () => {
  stack = await startStack({ publishing: true });
  ws = await createWorkspace(stack);
  assets = createClient(LinkedInAssetsServiceClient, stack.mediaAddr);
}, 90_000);
afterAll(async () => {
  assets?.close();
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const upload = (kind: 'image' | 'video', body: Record<string, unknown>, token = ws.apiKey) => call(`/linkedin/${kind}_uploads`, { body, token });
const connect = async (workspaceId: number, username: string, platform = 'linkedin') => (await stack.accounts.connectSocialAccount({ workspaceId, platform, username, sandbox: true })).socialAccountId;
const sandboxPosts = async () =>
  (await request(stack.sandboxUrl!, '/_sandbox/posts?platform=linkedin')).json.posts as Array<{ account: string; text: string; details: { author: string; content?: unknown } }>;
/** The number LinkedIn (the sandbox) gave an asset: they come from one counter, so a gap means a call reached LinkedIn. */
const serial = (urn: string) => BigInt(/(\d+)$/.exec(urn)![1]!);

async function publish(post: Record<string, unknown>) {
  const created = await call('/posts', { body: { post } });
  expect(created.status, created.text).toBe(201);
  const accepted = await call(`/posts/${created.json.post.id}/publishes`, { body: {} });
  expect(accepted.status, accepted.text).toBe(202);
  let settled: { status: string; post_accounts: Array<{ social_account_id: number; platform_status: string; platform_error: string | null }> } = { status: '', post_accounts: [] };
  await expect
    .poll(
      async () => {
        settled = (await call(`/posts/${created.json.post.id}`)).json.post;
        return ['posted', 'failed', 'partial'].includes(settled.status);
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  return settled;
}

describe('POST /linkedin/image_uploads and /linkedin/video_uploads, then a post that uses the asset', () => {
  it('uploads an image for the only LinkedIn account, records it, and a LinkedIn post with its asset_urn publishes', async () => {
    const solo = await connect(ws.workspaceId, 'li_solo');
    await connect(ws.workspaceId, 'x_other', 'twitter'); // other platforms do not count
    const image = await png(120, 80);
    const res = await upload('image', { content_type: 'image/png', media: image.toString('base64') });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({ asset_urn: expect.stringMatching(/^urn:li:image:\w+$/), social_account_id: solo });
    const { asset } = await assets.getLinkedInAsset({ workspaceId: ws.workspaceId, assetUrn: res.json.asset_urn });
    expect(asset).toMatchObject({
      assetUrn: res.json.asset_urn,
      workspaceId: ws.workspaceId,
      socialAccountId: solo,
      kind: LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE,
      contentType: 'image/png',
      sizeBytes: image.length,
      ownerUrn: 'urn:li:person:li_solo',
    });
    expect(Date.parse(asset!.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const post = await publish({
      body: 'with an uploaded image',
      post_contents: [{ platform: 'linkedin', body: 'Look at this', metadata: { asset_urn: res.json.asset_urn } }],
      post_accounts: [{ social_account_id: solo }],
    });
    expect(post.status).toBe('posted');
    const remote = (await sandboxPosts()).find((p) => p.text === 'Look at this');
    expect(remote?.details).toMatchObject({ author: 'urn:li:person:li_solo', content: { media: { id: res.json.asset_urn } } });
  });

  it('uploads a video in LinkedIn parts (initialize, PUT each range, finalize) and publishes a video post with it', async () => {
    const other = await createWorkspace(stack);
    const account = await connect(other.workspaceId, 'li_video');
    const video = await mp4(9 * 1024 * 1024 + 123); // three 4 MiB parts at LinkedIn
    const res = await upload('video', { content_type: 'video/mp4', media: video.toString('base64') }, other.apiKey);
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({ asset_urn: expect.stringMatching(/^urn:li:video:\w+$/), social_account_id: account });
    expect(res.headers['ratelimit-limit']).toBe('10');
    expect(res.headers['ratelimit-remaining']).toBe('9');
    const { asset } = await assets.getLinkedInAsset({ workspaceId: other.workspaceId, assetUrn: res.json.asset_urn });
    expect(asset).toMatchObject({ kind: LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO, contentType: 'video/mp4', sizeBytes: video.length, socialAccountId: account });
    // The record belongs to its workspace only.
    await expect(assets.getLinkedInAsset({ workspaceId: ws.workspaceId, assetUrn: res.json.asset_urn })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const created = await stack.api('/posts', {
      token: other.apiKey,
      localAddress: freshClientAddress(),
      body: {
        post: {
          body: 'clip',
          post_contents: [{ platform: 'linkedin', body: 'Our clip', content_type: 'text', metadata: { asset_urn: res.json.asset_urn } }],
          post_accounts: [{ social_account_id: account }],
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    await stack.api(`/posts/${created.json.post.id}/publishes`, { token: other.apiKey, localAddress: freshClientAddress(), body: {} });
    await expect.poll(async () => (await sandboxPosts()).find((p) => p.text === 'Our clip')?.details.content, { timeout: 30_000 }).toEqual({ media: { id: res.json.asset_urn } });
  });
});

describe('account choice', () => {
  it('needs a LinkedIn account; with several, social_account_id; it must be a connected LinkedIn account of the workspace', async () => {
    const mine = await createWorkspace(stack);
    const media = (await jpeg()).toString('base64');
    const none = await upload('image', { content_type: 'image/jpeg', media }, mine.apiKey);
    expectError(none, 422, 'INVALID_PARAMETERS');
    expect(none.json.error.details).toEqual([expect.stringMatching(/^social_account_id: no LinkedIn account is connected/)]);

    const first = await connect(mine.workspaceId, 'li_first');
    const second = await connect(mine.workspaceId, 'li_second');
    const x = await connect(mine.workspaceId, 'x_mine', 'twitter');
    const several = await upload('image', { content_type: 'image/jpeg', media }, mine.apiKey);
    expectError(several, 422, 'INVALID_PARAMETERS');
    expect(several.json.error.details[0]).toContain(`social_account_id: required: 2 LinkedIn accounts are connected (${first}, ${second})`);

    const notLinkedIn = await upload('image', { content_type: 'image/jpeg', media, social_account_id: x }, mine.apiKey);
    expectError(notLinkedIn, 422, 'INVALID_PARAMETERS');
    expect(notLinkedIn.json.error.details[0]).toContain('is a twitter account, not LinkedIn');

    const foreign = await connect(ws.workspaceId, 'li_foreign');
    expectError(await upload('image', { content_type: 'image/jpeg', media, social_account_id: foreign }, mine.apiKey), 404, 'NOT_FOUND');

    const chosen = await upload('image', { content_type: 'image/jpeg', media, social_account_id: second }, mine.apiKey);
    expect(chosen.status, chosen.text).toBe(201);
    expect(chosen.json.social_account_id).toBe(second);
    expect((await assets.getLinkedInAsset({ workspaceId: mine.workspaceId, assetUrn: chosen.json.asset_urn })).asset?.ownerUrn).toBe('urn:li:person:li_second');

    // The URN is scoped to the account that uploaded it: a post for both accounts publishes it only for that one.
    const post = await stack.api('/posts', {
      token: mine.apiKey,
      localAddress: freshClientAddress(),
      body: {
        post: {
          body: 'shared',
          post_contents: [{ platform: 'linkedin', body: 'Scoped asset', metadata: { asset_urn: chosen.json.asset_urn } }],
          post_accounts: [{ social_account_id: first }, { social_account_id: second }],
        },
      },
    });
    expect(post.status, post.text).toBe(201);
    await stack.api(`/posts/${post.json.post.id}/publishes`, { token: mine.apiKey, localAddress: freshClientAddress(), body: {} });
    let settled: { status: string; post_accounts: Array<{ social_account_id: number; platform_status: string; platform_error: string | null }> } | undefined;
    await expect
      .poll(
        async () => {
          settled = (await stack.api(`/posts/${post.json.post.id}`, { token: mine.apiKey, localAddress: freshClientAddress() })).json.post;
          return settled?.status;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe('partial');
    const byAccount = Object.fromEntries(settled!.post_accounts.map((a) => [a.social_account_id, a]));
    expect(byAccount[second]).toMatchObject({ platform_status: 'posted', platform_error: null });
    expect(byAccount[first]?.platform_status).toBe('failed');
    expect(byAccount[first]?.platform_error).toContain(`asset_urn ${chosen.json.asset_urn} was uploaded by social account ${second}, not by this one (${first})`);
    expect((await sandboxPosts()).filter((p) => p.text === 'Scoped asset').map((p) => p.details.author)).toEqual(['urn:li:person:li_second']);

    // Another workspace cannot use it either, nor a URN that no upload through the API recorded.
    const stolen = await publish({
      body: 'x',
      post_contents: [{ platform: 'linkedin', body: 'Stolen asset', metadata: { asset_urn: chosen.json.asset_urn } }],
      post_accounts: [{ social_account_id: foreign }],
    });
    expect(stolen.status).toBe('failed');
    expect(stolen.post_accounts[0]?.platform_error).toContain(`was uploaded by social account ${second}, not by this one (${foreign})`);
    const invented = await publish({
      body: 'x',
      post_contents: [{ platform: 'linkedin', body: 'Invented asset', metadata: { asset_urn: 'urn:li:video:C5F123' } }],
      post_accounts: [{ social_account_id: foreign }],
    });
    expect(invented.post_accounts[0]?.platform_error).toContain('was not uploaded through this API');
    expect((await sandboxPosts()).filter((p) => ['Stolen asset', 'Invented asset'].includes(p.text))).toEqual([]);
  });
});

describe('bad input: a clear 4xx, nothing uploaded to LinkedIn, nothing recorded', () => {
  it('refuses invalid base64, a data: prefix, a type the bytes are not, SVG/HTML posing as images, a wrong kind and oversized files', async () => {
    const bad = await createWorkspace(stack);
    await connect(bad.workspaceId, 'li_bad');
    const image = await png();
    const before = await upload('image', { content_type: 'image/png', media: image.toString('base64') }, bad.apiKey);
    expect(before.status, before.text).toBe(201);

    const cases: Array<[kind: 'image' | 'video', body: Record<string, unknown>, status: number, code: string, detail: RegExp | undefined]> = [
      ['image', { content_type: 'image/png', media: 'not base64 at all!' }, 422, 'INVALID_PARAMETERS', /^media: invalid base64 character " "/],
      ['image', { content_type: 'image/png', media: `data:image/png;base64,${image.toString('base64')}` }, 422, 'INVALID_PARAMETERS', /^media: must be bare base64, without a data: URL prefix/],
      ['image', { content_type: 'image/jpeg', media: image.toString('base64') }, 422, 'INVALID_PARAMETERS', /^content_type: 'image\/jpeg' was declared but the bytes are image\/png/],
      [
        'image',
        { content_type: 'image/png', media: SVG.toString('base64') },
        422,
        'INVALID_PARAMETERS',
        /^media: the bytes are application\/xml; a LinkedIn image must be image\/jpeg, image\/png, image\/gif$/,
      ],
      ['image', { content_type: 'image/gif', media: HTML.toString('base64') }, 422, 'INVALID_PARAMETERS', /^media: the bytes are of no recognised media format; a LinkedIn image must be/],
      ['image', { content_type: 'image/svg+xml', media: SVG.toString('base64') }, 422, 'INVALID_PARAMETERS', /^content_type: 'image\/svg\+xml' is not accepted for a LinkedIn image/],
      ['image', { content_type: 'image/webp', media: (await sharp(image).webp().toBuffer()).toString('base64') }, 422, 'INVALID_PARAMETERS', /^content_type: 'image\/webp' is not accepted/],
      ['video', { content_type: 'video/mp4', media: image.toString('base64') }, 422, 'INVALID_PARAMETERS', /^media: the bytes are image\/png; a LinkedIn video must be video\/mp4$/],
      ['image', { content_type: 'image/png', media: image.toString('base64'), owner: 'someone' }, 422, 'INVALID_PARAMETERS', undefined],
      ['image', { content_type: 'image/png' }, 422, 'INVALID_PARAMETERS', /^media: /],
      ['image', { content_type: 'image/jpeg', media: (await bigJpeg(5_000_001)).toString('base64') }, 413, 'PAYLOAD_TOO_LARGE', undefined],
      ['image', { content_type: 'image/jpeg', media: (await bigJpeg(6_000_000)).toString('base64') }, 413, 'PAYLOAD_TOO_LARGE', undefined],
    ];
    for (const [kind, body, status, code, detail] of cases) {
      const res = await upload(kind, body, bad.apiKey);
      expectError(res, status, code);
      if (detail) expect(res.json.error.details?.[0], JSON.stringify(res.json)).toMatch(detail);
    }
    const after = await upload('image', { content_type: 'image/png', media: image.toString('base64') }, bad.apiKey);
    expect(after.status, after.text).toBe(201);
    // LinkedIn numbered no upload in between: none of the bad requests reached it (so none was recorded).
    expect(serial(after.json.asset_urn) - serial(before.json.asset_urn)).toBe(1n);
  });

  it('needs publish:write and a paid plan', async () => {
    const readOnly = await createWorkspace(stack, { scopes: ['posts:read'] });
    expectError(await upload('image', { content_type: 'image/png', media: (await png()).toString('base64') }, readOnly.apiKey), 403, 'INSUFFICIENT_SCOPE');
    const lapsed = await createWorkspace(stack, { tier: 'starter', status: 'past_due' });
    expectError(await upload('video', { content_type: 'video/mp4', media: (await mp4()).toString('base64') }, lapsed.apiKey), 403, 'NO_ACTIVE_SUBSCRIPTION');
  });
});

describe('POST /linkedin/video_uploads rate limit', () => {
  it('takes 10 uploads per hour per token, then 429 with Retry-After; images are not limited by it', async () => {
    const busy = await createWorkspace(stack, { tier: 'starter' });
    await connect(busy.workspaceId, 'li_busy');
    const media = (await mp4(64 * 1024)).toString('base64');
    for (let i = 0; i < 10; i++) {
      const res = await upload('video', { content_type: 'video/mp4', media }, busy.apiKey);
      expect(res.status, res.text).toBe(201);
      expect(res.headers['ratelimit-remaining']).toBe(String(9 - i));
    }
    const refused = await upload('video', { content_type: 'video/mp4', media }, busy.apiKey);
    expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(refused.json.error.retry_after).toBeGreaterThan(3000);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await upload('image', { content_type: 'image/png', media: (await png()).toString('base64') }, busy.apiKey)).status).toBe(201);
  });
});

describe("LinkedIn's own refusals", () => {
  it('maps a LinkedIn 5xx to 503, its 429 to 429 with its hint, and a refused token to 422 that disconnects the account', async () => {
    const w = await createWorkspace(stack);
    const account = await connect(w.workspaceId, 'li_refused');
    const media = (await png()).toString('base64');
    const fault = (name: string) => request(stack.sandboxUrl!, '/_sandbox/faults', { body: { platform: 'linkedin', fault: name, times: 1 } });
    await fault('server_error');
    expectError(await upload('image', { content_type: 'image/png', media }, w.apiKey), 503, 'SERVICE_UNAVAILABLE');
    await fault('rate_limited');
    const limited = await upload('image', { content_type: 'image/png', media }, w.apiKey);
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect([limited.json.error.retry_after, limited.headers['retry-after']]).toEqual([1, '1']);

    await fault('auth');
    const refused = await upload('video', { content_type: 'video/mp4', media: (await mp4()).toString('base64') }, w.apiKey);
    expectError(refused, 422, 'INVALID_PARAMETERS');
    expect(refused.json.error.details[0]).toMatch(/^social_account_id: /);
    const listed = (await call('/social_accounts', { token: w.apiKey })).json.social_accounts as Array<{ id: number; disconnected: boolean }>;
    expect(listed.find((a) => a.id === account)?.disconnected).toBe(true);
    const none = await upload('image', { content_type: 'image/png', media }, w.apiKey);
    expect(none.json.error.details).toEqual([expect.stringMatching(/^social_account_id: no LinkedIn account is connected/)]);
    const explicit = await upload('image', { content_type: 'image/png', media, social_account_id: account }, w.apiKey);
    expect(explicit.json.error.details).toEqual([`social_account_id: account ${account} is disconnected; reconnect it first`]);
  });
});

describe('OpenAPI', () => {
  it('documents both routes: the body fields, the limits and the 10/hour bucket', async () => {
    const doc = (await call('/openapi.json')).json;
    const video = doc.paths['/linkedin/video_uploads'].post;
    const image = doc.paths['/linkedin/image_uploads'].post;
    expect(Object.keys(video.requestBody.content['application/json'].schema.properties)).toEqual(['content_type', 'social_account_id', 'media']);
    expect(video.description).toContain('Rate limit: 10 per 3600 s per token');
    expect(image.description).not.toContain('Rate limit: 10');
    expect(image.requestBody.content['application/json'].schema.properties.media.description).toContain('at most 5000000 bytes');
    expect(video.responses['201']).toBeDefined();
  });
});

/** Sends a body piece by piece (never whole); `stopAfter` bytes: the client goes away there instead of finishing. */
function streamUpload(
  kind: 'image' | 'video',
  token: string,
  body: { length: number; pieces(): Generator<Buffer> },
  opts: { stopAfter?: number; whenStopped?: () => Promise<void> } = {},
): Promise<{ status: number; json: { error?: { code: string; details?: string[] } } & Record<string, unknown> } | 'closed'> {
  const url = new URL(`/api/v1/linkedin/${kind}_uploads`, stack.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: freshClientAddress(),
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', (err) => (opts.stopAfter !== undefined ? resolve('closed') : reject(err)));
    void (async () => {
      let sent = 0;
      for (const piece of body.pieces()) {
        if (opts.stopAfter !== undefined && sent + piece.length > opts.stopAfter) {
          req.write(piece.subarray(0, opts.stopAfter - sent));
          await opts.whenStopped?.();
          req.destroy();
          resolve('closed');
          return;
        }
        sent += piece.length;
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}

/** GET /rest/videos/{urn} of the LinkedIn stand-in: status, and the size and SHA-256 of each part it received. */
async function remoteVideo(urn: string, account: string) {
  const res = await request(stack.sandboxUrl!, `/linkedin/rest/videos/${encodeURIComponent(urn)}`, { headers: { authorization: `Bearer sandbox-${account}`, 'linkedin-version': '202608' } });
  return res.json as { status: string; sandbox: { fileSizeBytes: number; parts: Array<{ firstByte: number; lastByte: number; etag: string | null; sha256: string | null }> } };
}
const staged = async () => readdir(path.join(stack.mediaDir, 'staging')).catch(() => []);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('videos beyond one gRPC message, streamed end to end', () => {
  it('uploads an 80 MiB video: LinkedIn received every byte, in order, in 4 MiB parts, and the asset is recorded', async () => {
    const big = await createWorkspace(stack);
    const account = await connect(big.workspaceId, 'li_big');
    const video = await mp4(80 * 1024 * 1024 + 777); // more than the 64 MiB a gRPC message may carry
    const res = await streamUpload('video', big.apiKey, base64Body({ content_type: 'video/mp4' }, video));
    expect(res, JSON.stringify(res)).toMatchObject({ status: 201, json: { asset_urn: expect.stringMatching(/^urn:li:video:/), social_account_id: account } });
    const urn = (res as { json: Record<string, unknown> }).json.asset_urn as string;
    const remote = await remoteVideo(urn, 'li_big');
    expect(remote.status).toBe('AVAILABLE');
    expect(remote.sandbox.fileSizeBytes).toBe(video.length);
    expect(remote.sandbox.parts).toHaveLength(21);
    expect(remote.sandbox.parts.map((p) => [p.firstByte, p.lastByte, p.sha256])).toEqual(
      remote.sandbox.parts.map((p) => [p.firstByte, p.lastByte, sha256(video.subarray(p.firstByte, p.lastByte + 1))]),
    );
    expect(remote.sandbox.parts.every((p) => p.etag)).toBe(true);
    const { asset } = await assets.getLinkedInAsset({ workspaceId: big.workspaceId, assetUrn: urn });
    expect(asset).toMatchObject({ kind: LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO, sizeBytes: video.length, socialAccountId: account, ownerUrn: 'urn:li:person:li_big' });
    expect(await staged()).toEqual([]);
  }, 120_000);

  it('a body that fails mid-stream (bad base64 near the end, or a client that goes away) records and finalizes nothing', async () => {
    const w = await createWorkspace(stack);
    await connect(w.workspaceId, 'li_midway');
    const image = (await png()).toString('base64');
    const before = await upload('image', { content_type: 'image/png', media: image }, w.apiKey);
    expect(before.status, before.text).toBe(201);

    const video = await mp4(20 * 1024 * 1024);
    const base64Length = Math.ceil(video.length / 3) * 4;
    const corrupt = await streamUpload('video', w.apiKey, base64Body({ content_type: 'video/mp4' }, video, { corrupt: base64Length - 10 }));
    expect(corrupt).toMatchObject({ status: 422, json: { error: { code: 'INVALID_PARAMETERS', details: [`media: invalid base64 character "!" at position ${base64Length - 10}`] } } });

    const body = base64Body({ content_type: 'video/mp4' }, video);
    const gone = await streamUpload('video', w.apiKey, body, {
      stopAfter: body.length - 1024 * 1024,
      // The bytes are being staged in the media service when the client goes away.
      whenStopped: () => expect.poll(async () => (await staged()).length, { timeout: 10_000 }).toBe(1),
    });
    expect(gone).toBe('closed');
    await expect.poll(async () => (await staged()).length, { timeout: 10_000 }).toBe(0);

    const after = await upload('image', { content_type: 'image/png', media: image }, w.apiKey);
    expect(after.status, after.text).toBe(201);
    // LinkedIn numbered nothing in between: neither upload was registered, so none was finalized or recorded.
    expect(serial(after.json.asset_urn) - serial(before.json.asset_urn)).toBe(1n);
  }, 120_000);
});
