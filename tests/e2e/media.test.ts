import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { bigJpeg, HTML, jpeg, mp4, png, pngBomb, SVG } from '../support/media-files.js';

let stack: Stack;
let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  stack = await startStack();
  [ws, other] = await Promise.all([createWorkspace(stack), createWorkspace(stack)]);
});
afterAll(async () => {
  await stack?.stop();
});

/** The first box of a HEIC file (`ftyp`, brand heic): what sniffing reads; no image library here can decode HEIC. */
const HEIC_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic')]);

const call = (p: string, opts: HttpOptions = {}, who: TestWorkspace = ws) => stack.api(p, { token: who.apiKey, localAddress: freshClientAddress(), ...opts });
const upload = (p: string, body: unknown, who: TestWorkspace = ws) => call(p, { body }, who);
const connect = (platform: string, who: TestWorkspace = ws) => stack.accounts.connectSocialAccount({ workspaceId: who.workspaceId, platform, username: `${platform}-user`, sandbox: true });

/** Every file stored (or staged) for a workspace, to prove a refusal stored nothing. */
async function filesOf(workspaceId: number): Promise<string[]> {
  const files = await readdir(path.join(stack.mediaDir, 'objects', 'ws', String(workspaceId)), { recursive: true }).catch(() => []);
  return files.filter((f) => /\.\w+$/.test(f));
}
const staged = async () => readdir(path.join(stack.mediaDir, 'staging')).catch(() => []);

/** GET a public media URL (through the gateway's /media relay). */
async function fetchUrl(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('POST /media/uploads', () => {
  it('stores an image under the workspace prefix and serves the same bytes at url', async () => {
    const bytes = await png(64, 48);
    const res = await upload('/media/uploads', { platform: 'twitter', content_type: 'image/png', media: bytes.toString('base64') });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ content_type: 'image/png', size_bytes: bytes.length, width: 64, height: 48 });
    expect(res.json.r2_key).toMatch(new RegExp(`^ws/${ws.workspaceId}/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png$`));
    expect(res.json.url).toBe(`${stack.baseUrl}/media/${res.json.r2_key}`);
    const served = await fetchUrl(res.json.url);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.bytes.equals(bytes)).toBe(true);
  });

  it('accepts the fields in any order, and image/jpg for JPEG', async () => {
    const bytes = await jpeg();
    const raw = `{"media":"${bytes.toString('base64')}","content_type":"image/jpg","platform":"mastodon"}`;
    const res = await call('/media/uploads', { body: raw });
    expect(res.status, res.text).toBe(201);
    expect(res.json.content_type).toBe('image/jpeg');
    expect(res.json.r2_key).toMatch(/\.jpg$/);
  });

  it('needs publish:write', async () => {
    const reader = await createWorkspace(stack, { scopes: ['posts:read'] });
    const res = await upload('/media/uploads', { platform: 'twitter', content_type: 'image/png', media: (await png()).toString('base64') }, reader);
    expectError(res, 403, 'INSUFFICIENT_SCOPE');
    expect(res.json.error.message).toContain('publish:write');
  });

  describe('bad input: a clear 4xx and nothing stored', () => {
    const cases: Array<[string, () => Promise<unknown>, number, string, RegExp]> = [
      [
        'a declared type that does not match the bytes',
        async () => ({ platform: 'twitter', content_type: 'image/png', media: (await jpeg()).toString('base64') }),
        422,
        'INVALID_PARAMETERS',
        /declared image\/png but the bytes are image\/jpeg/,
      ],
      ['SVG declared as SVG', async () => ({ platform: 'twitter', content_type: 'image/svg+xml', media: SVG.toString('base64') }), 422, 'INVALID_PARAMETERS', /not a recognised image or video/],
      ['SVG posing as PNG', async () => ({ platform: 'pinterest', content_type: 'image/png', media: SVG.toString('base64') }), 422, 'INVALID_PARAMETERS', /SVG, HTML/],
      ['HTML posing as JPEG', async () => ({ platform: 'twitter', content_type: 'image/jpeg', media: HTML.toString('base64') }), 422, 'INVALID_PARAMETERS', /not a recognised image/],
      [
        'a data: URL prefix',
        async () => ({ platform: 'twitter', content_type: 'image/png', media: `data:image/png;base64,${(await png()).toString('base64')}` }),
        422,
        'INVALID_PARAMETERS',
        /without a data: URL prefix/,
      ],
      [
        'invalid base64',
        async () => ({ platform: 'twitter', content_type: 'image/png', media: `${(await png()).toString('base64').slice(0, 40)}*!${'A'.repeat(10)}` }),
        422,
        'INVALID_PARAMETERS',
        /invalid base64 character "\*" at position 40/,
      ],
      ['base64 with padding in the middle', async () => ({ platform: 'twitter', content_type: 'image/png', media: 'iVBO=w0KGgo' }), 422, 'INVALID_PARAMETERS', /padding/],
      [
        'a decompression bomb (100000x100000 declared)',
        async () => ({ platform: 'pinterest', content_type: 'image/png', media: pngBomb().toString('base64') }),
        422,
        'INVALID_PARAMETERS',
        /declares more than the 100000000 pixels/,
      ],
      ['a video for an images-only platform', async () => ({ platform: 'threads', content_type: 'video/mp4', media: (await mp4()).toString('base64') }), 422, 'INVALID_PARAMETERS', /images only/],
      [
        'a type the platform does not take and the pipeline cannot convert (HEIC)',
        async () => ({ platform: 'instagram', content_type: 'image/heic', media: HEIC_HEAD.toString('base64') }),
        422,
        'INVALID_PARAMETERS',
        /instagram takes image\/jpeg.*converted when published; not image\/heic/,
      ],
      ['an unknown platform', async () => ({ platform: 'myspace', content_type: 'image/png', media: (await png()).toString('base64') }), 422, 'INVALID_PARAMETERS', /platform/],
      ['a missing field', async () => ({ platform: 'twitter', media: (await png()).toString('base64') }), 422, 'INVALID_PARAMETERS', /content_type: required/],
      ['an unknown field', async () => ({ platform: 'twitter', content_type: 'image/png', media: 'AAAA', workspace_id: 1 }), 422, 'INVALID_PARAMETERS', /workspace_id: unknown field/],
      ['media that is not a string', async () => ({ platform: 'twitter', content_type: 'image/png', media: [1, 2] }), 422, 'INVALID_PARAMETERS', /media: must be a string/],
      ['a body that is not an object', async () => [1, 2, 3], 422, 'INVALID_PARAMETERS', /must be a JSON object/],
      [
        'a video over the platform limit (discord: 10 MiB)',
        async () => ({ platform: 'discord', content_type: 'video/mp4', media: (await mp4(11 * 1024 * 1024)).toString('base64') }),
        413,
        'PAYLOAD_TOO_LARGE',
        /discord videos/,
      ],
    ];
    it.each(cases)('%s', async (_name, body, status, code, message) => {
      const before = await filesOf(ws.workspaceId);
      const res = await upload('/media/uploads', await body());
      expectError(res, status, code);
      expect(`${res.json.error.message} ${(res.json.error.details ?? []).join(' ')}`).toMatch(message);
      expect(await filesOf(ws.workspaceId)).toEqual(before);
      expect(await staged()).toEqual([]);
    });

    it('malformed JSON is 422', async () => {
      const res = await call('/media/uploads', { body: '{"platform":"twitter","media":"AAAA' });
      expectError(res, 422, 'INVALID_PARAMETERS');
    });

    it('a body over the route limit is refused from its Content-Length (413) before it is read', async () => {
      // facebook/media_uploads takes images up to 4 MB: its JSON limit is the base64 of that plus a little.
      const huge = Buffer.alloc(7_000_000, 0x41);
      const res = await call('/facebook/media_uploads', { body: huge });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    });
  });
});

describe('platform-scoped uploads', () => {
  it('facebook takes JPEG and PNG images only', async () => {
    const ok = await upload('/facebook/media_uploads', { content_type: 'image/png', media: (await png()).toString('base64') });
    expect(ok.status, ok.text).toBe(201);
    expectError(await upload('/facebook/media_uploads', { content_type: 'video/mp4', media: (await mp4()).toString('base64') }), 422, 'INVALID_PARAMETERS');
    expectError(await upload('/facebook/media_uploads', { content_type: 'image/png', platform: 'facebook', media: 'AAAA' }), 422, 'INVALID_PARAMETERS');
  });

  it('instagram takes a JPEG image or an MP4 video', async () => {
    const image = await upload('/instagram/media_uploads', { content_type: 'image/jpeg', media: (await jpeg()).toString('base64') });
    expect(image.status, image.text).toBe(201);
    const video = await mp4(300_000);
    const res = await upload('/instagram/media_uploads', { content_type: 'video/mp4', media: video.toString('base64') });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ content_type: 'video/mp4', size_bytes: video.length, width: null, height: null });
    expect((await fetchUrl(res.json.url)).bytes.equals(video)).toBe(true);
  });

  it.each(['discord', 'telegram', 'tumblr', 'slack'])('%s needs a connected account', async (platform) => {
    const media = (await png()).toString('base64');
    const refused = await upload(`/${platform}/media_uploads`, { content_type: 'image/png', media }, other);
    expectError(refused, 422, 'INVALID_PARAMETERS');
    expect(refused.json.error.details[0]).toContain(`connected ${platform} account`);
    expect(await filesOf(other.workspaceId)).toEqual([]);
    await connect(platform);
    const res = await upload(`/${platform}/media_uploads`, { content_type: 'image/png', media });
    expect(res.status, res.text).toBe(201);
  });
});

describe('DELETE /tumblr/media_uploads/{r2_key}', () => {
  it("deletes the caller's file; another workspace gets 403, an unknown key 404", async () => {
    await connect('tumblr');
    const res = await upload('/tumblr/media_uploads', { content_type: 'image/png', media: (await png()).toString('base64') });
    expect(res.status, res.text).toBe(201);
    const key: string = res.json.r2_key;
    const pathOf = (k: string) => `/tumblr/media_uploads/${encodeURIComponent(k)}`;
    expectError(await call(pathOf(key), { method: 'DELETE' }, other), 403, 'MEDIA_NOT_OWNED');
    expect((await fetchUrl(res.json.url)).status).toBe(200);
    expectError(await call(pathOf(key.replace(/[0-9a-f]{8}-/, '00000000-')), { method: 'DELETE' }), 404, 'NOT_FOUND');
    expectError(await call(pathOf('../../etc/passwd'), { method: 'DELETE' }), 404, 'NOT_FOUND');
    const twitter = await upload('/media/uploads', { platform: 'twitter', content_type: 'image/png', media: (await png()).toString('base64') });
    expectError(await call(pathOf(twitter.json.r2_key), { method: 'DELETE' }), 404, 'NOT_FOUND');
    const deleted = await call(pathOf(key), { method: 'DELETE' });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({ deleted: true, r2_key: key });
    expect((await fetchUrl(res.json.url)).status).toBe(404);
    expectError(await call(pathOf(key), { method: 'DELETE' }), 404, 'NOT_FOUND');
  });
});

describe('GET /facebook/uploads/presign', () => {
  const put = (url: string, body: Buffer, headers: Record<string, string>) => fetch(url, { method: 'PUT', body, headers });

  it('answers a URL that takes one PUT of exactly that size and type, relayed to storage', async () => {
    const video = await mp4(200_000);
    const res = await call(`/facebook/uploads/presign?content_type=video/mp4&file_size=${video.length}`);
    expect(res.status, res.text).toBe(200);
    const { upload_url: url, r2_key: key, expires_at: expiresAt } = res.json;
    expect(key).toMatch(new RegExp(`^ws/${ws.workspaceId}/.+\\.mp4$`));
    expect(url.startsWith(`${stack.baseUrl}/media/${key}?`)).toBe(true);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    expect((await fetchUrl(`${stack.baseUrl}/media/${key}`)).status).toBe(404);

    const wrongType = await put(url, video, { 'content-type': 'video/quicktime' });
    expect(wrongType.status).toBe(403);
    const wrongSize = await put(url, video.subarray(0, 1000), { 'content-type': 'video/mp4' });
    expect(wrongSize.status).toBe(403);
    const forged = await put(url.replace(/X-Spa-Size=\d+/, 'X-Spa-Size=1000'), video.subarray(0, 1000), { 'content-type': 'video/mp4' });
    expect(forged.status).toBe(403);
    const otherKey = url.replace(key, key.replace(/[0-9a-f]{8}-/, '00000000-'));
    expect((await put(otherKey, video, { 'content-type': 'video/mp4' })).status).toBe(403);
    expect(await filesOf(ws.workspaceId)).not.toContain(key.split('/').slice(2).join('/'));

    const ok = await put(url, video, { 'content-type': 'video/mp4' });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const served = await fetchUrl(`${stack.baseUrl}/media/${key}`);
    expect(served.type).toBe('video/mp4');
    expect(served.bytes.equals(video)).toBe(true);
    const again = await put(url, video, { 'content-type': 'video/mp4' });
    expect(again.status).toBe(422);
  });

  it('refuses bytes that are not the signed type', async () => {
    const fake = await bigJpeg(50_000);
    const res = await call(`/facebook/uploads/presign?content_type=video/mp4&file_size=${fake.length}`);
    const refused = await put(res.json.upload_url, fake, { 'content-type': 'video/mp4' });
    expect(refused.status).toBe(422);
    expect((await fetchUrl(`${stack.baseUrl}/media/${res.json.r2_key}`)).status).toBe(404);
  });

  it('takes video types up to 1 GB only', async () => {
    expectError(await call('/facebook/uploads/presign?content_type=image/png&file_size=1000'), 422, 'INVALID_PARAMETERS');
    expectError(await call(`/facebook/uploads/presign?content_type=video/mp4&file_size=${1_000_000_001}`), 422, 'INVALID_PARAMETERS');
    expectError(await call('/facebook/uploads/presign?content_type=video/mp4'), 422, 'INVALID_PARAMETERS');
    expectError(await call('/facebook/uploads/presign?content_type=video/mp4&file_size=-5'), 422, 'INVALID_PARAMETERS');
  });
});

describe('a client that goes away mid-upload', () => {
  it('leaves nothing stored or staged', async () => {
    const { request } = await import('node:http');
    const before = await filesOf(ws.workspaceId);
    const body = Buffer.from(JSON.stringify({ platform: 'pinterest', content_type: 'image/jpeg', media: (await bigJpeg(3_000_000)).toString('base64') }));
    const url = new URL('/api/v1/media/uploads', stack.baseUrl);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      localAddress: freshClientAddress(),
      headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'application/json', 'content-length': body.length },
    });
    req.on('error', () => undefined);
    req.write(body.subarray(0, 2_000_000));
    await expect.poll(async () => (await staged()).length, { timeout: 10_000 }).toBe(1);
    req.destroy();
    await expect.poll(async () => (await staged()).length, { timeout: 10_000 }).toBe(0);
    expect(await filesOf(ws.workspaceId)).toEqual(before);
  });
});
