import { sandboxBoardId } from '@spa/platforms';
import { startSandbox, type Sandbox } from '@spa/sandbox';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pinterest } from '../../../../tools/sandbox/src/platforms/pinterest.js';
import { hostMedia, type MediaHost } from './media-host.test-support.js';
import { pinterestConnector } from './pinterest.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';
import { expectGoneOnceRemoved } from './gone.test-support.js';

let sandbox: Sandbox;
let host: MediaHost;
beforeAll(async () => {
  sandbox = await startSandbox([pinterest]);
  const pin = await makeImage({ format: 'jpeg', width: 600, height: 900 });
  host = await hostMedia({
    'a.jpg': pin,
    'b.png': await makeImage({ format: 'png', width: 600, height: 900 }),
    'c.webp': await makeImage({ format: 'webp', width: 600, height: 900 }),
    'd.jpg': pin,
    'e.jpg': pin,
    'f.jpg': pin,
    'photo.avif': await makeImage({ format: 'avif', width: 600, height: 900 }),
    'clip.mp4': await makeVideo({ width: 360, height: 640, seconds: 5 }),
    'short.mp4': await makeVideo({ width: 360, height: 640, seconds: 2 }),
  });
});
afterAll(async () => {
  await sandbox.close();
  await host.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = { socialAccountId: 1, platform: 'pinterest', username: 'acme', credentials: { access_token: 'sandbox-acme', board_id: sandboxBoardId('acme', 1) } };
const image = (name: string): MediaItem => host.item(name, 'image');
const video = (name: string): MediaItem => host.item(name, 'video', 'video/mp4');
const part = (body: string, extra: Partial<ContentPart> = {}): ContentPart => ({ body, contentType: 'image', position: 0, media: [image('a.jpg')], ...extra });
const connector = (maxPolls = 5) => pinterestConnector(`${sandbox.url}/pinterest`, { intervalMs: 5, maxPolls });
const pins = () => sandbox.state.postsOf('pinterest', 'acme');

describe('Pinterest connector against the strict API v5 stand-in', () => {
  it("pins an image to the post's board with its title and link, and Pinterest receives the real image", async () => {
    const body = 'Spring menu\nAll the new dishes at https://acme.example/menu today';
    const options = { board_id: sandboxBoardId('acme', 2), title: 'Our spring dishes', link: 'https://acme.example/spring' };
    const result = await connector().publish({ target, parts: [part(body, { options })] });
    const [pin] = pins();
    expect(pin?.text).toBe(body);
    expect(pin?.details).toMatchObject({
      board_id: sandboxBoardId('acme', 2),
      title: 'Our spring dishes',
      link: 'https://acme.example/spring',
      media_source: { source_type: 'image_url', url: host.url('a.jpg') },
    });
    expect(pin?.media).toEqual([expect.objectContaining({ kind: 'image', content_type: 'image/jpeg', width: 600, height: 900 })]);
    expect(result).toEqual({ platformPostId: pin?.id, permalink: `https://www.pinterest.com/pin/${pin?.id}/` });
  });

  it("without a board_id, pins to the account's default board, titled by the body's first line and linked to its first URL", async () => {
    await connector().publish({ target, parts: [part('Spring menu\nsee https://acme.example/menu')] });
    expect(pins()[0]?.details).toMatchObject({ board_id: sandboxBoardId('acme', 1), title: 'Spring menu', link: 'https://acme.example/menu' });
  });

  it('sends 2 to 5 images as a multiple_image_urls carousel, each image reaching Pinterest', async () => {
    await connector().publish({ target, parts: [part('carousel', { media: [image('a.jpg'), image('b.png'), image('c.webp')] })] });
    const [pin] = pins();
    expect(pin?.details.media_source).toMatchObject({ source_type: 'multiple_image_urls', items: [{ url: host.url('a.jpg') }, { url: host.url('b.png') }, { url: host.url('c.webp') }] });
    expect(pin?.media.map((m) => m.content_type)).toEqual(['image/jpeg', 'image/png', 'image/webp']);
  });

  it('publishes a video pin through media registration: upload, processing polled until succeeded, then the pin with a cover', async () => {
    await connector().publish({ target, parts: [part('how we cook', { contentType: 'video', media: [video('clip.mp4')] })] });
    const [pin] = pins();
    expect(pin?.details.media_source).toMatchObject({ source_type: 'video_id', cover_image_key_frame_time: 0 });
    expect(pin?.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 360, height: 640, video_codec: 'h264' })]);
    expect((pin?.media[0] as { duration_s: number }).duration_s).toBeCloseTo(5, 0);
    // The post's image beside the video becomes its cover.
    await connector().publish({ target, parts: [part('with a cover', { contentType: 'video', media: [video('clip.mp4'), image('a.jpg')] })] });
    expect(pins()[1]?.details.media_source).toMatchObject({ source_type: 'video_id', cover_image_url: host.url('a.jpg') });
  });

  it('refuses a video Pinterest fails to process (shorter than 4 s) as rejected, and a video still processing as transient, pinning nothing', async () => {
    const short = await connector()
      .publish({ target, parts: [part('too short', { contentType: 'video', media: [video('short.mp4')] })] })
      .catch((e: unknown) => e);
    expect(short).toMatchObject({ kind: 'rejected', message: expect.stringContaining('failed') });
    await expect(connector(1).publish({ target, parts: [part('slow', { contentType: 'video', media: [video('clip.mp4')] })] })).rejects.toMatchObject({ kind: 'transient' });
    expect(pins()).toEqual([]);
  });

  it("the stand-in refuses a board that is not the account's (404) and the preflight catches it before anything is created", async () => {
    const elsewhere = part('wrong board', { options: { board_id: sandboxBoardId('someone', 1) } });
    const error = await connector()
      .publish({ target, parts: [elsewhere] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', status: 404, message: expect.stringContaining('Board not found') });
    sandbox.state.reset();
    await expect(connector().preflight!({ target, parts: [elsewhere] })).rejects.toMatchObject({
      kind: 'rejected',
      message: `pinterest: board ${sandboxBoardId('someone', 1)} is not one of the account's boards`,
    });
    await expect(connector().preflight!({ target, parts: [part('right board', { options: { board_id: sandboxBoardId('acme', 3) } })] })).resolves.toBeUndefined();
    expect(sandbox.state.requests.filter((r) => r.creates)).toEqual([]);
  });

  it("the stand-in refuses an image type Pinterest does not take, read from the bytes, with Pinterest's error shape", async () => {
    const error = await connector()
      .publish({ target, parts: [part('avif', { media: [image('photo.avif')] })] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect((error as ConnectorError).message).toMatch(/"code":1,"message":"Invalid parameters: image: unsupported media type image\/avif/);
    expect(pins()).toEqual([]);
  });

  it('the stand-in takes a base64 image and enforces media registration: every upload parameter, a succeeded media id, a cover', async () => {
    const call = async (path: string, body: unknown) => {
      const answer = await fetch(`${sandbox.url}/pinterest${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-acme', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json().catch(() => undefined)) as Record<string, unknown> };
    };
    const data = (await makeImage({ format: 'jpeg', width: 600, height: 900 })).toString('base64');
    expect(await call('/v5/pins', { board_id: sandboxBoardId('acme', 1), media_source: { source_type: 'image_base64', content_type: 'image/jpeg', data } })).toMatchObject({ status: 201 });
    expect(pins()[0]?.media).toEqual([expect.objectContaining({ content_type: 'image/jpeg', width: 600, height: 900 })]);
    const registered = (await call('/v5/media', { media_type: 'video' })).body as { media_id: string; upload_url: string; upload_parameters: Record<string, string> };
    const form = new FormData();
    for (const [name, value] of Object.entries(registered.upload_parameters)) if (name !== 'x-amz-signature') form.set(name, value);
    form.set('file', new Blob([new Uint8Array(await makeVideo({ width: 360, height: 640, seconds: 5 }))]), 'video');
    expect((await fetch(registered.upload_url, { method: 'POST', body: form })).status).toBe(403);
    const pin = (media_source: Record<string, unknown>) => call('/v5/pins', { board_id: sandboxBoardId('acme', 1), media_source: { source_type: 'video_id', ...media_source } });
    expect(await pin({ media_id: registered.media_id, cover_image_key_frame_time: 0 })).toMatchObject({
      status: 400,
      body: { code: 1, message: expect.stringContaining('registered, not succeeded') },
    });
    expect(await pin({ media_id: 'unknown', cover_image_key_frame_time: 0 })).toMatchObject({ status: 404 });
    form.set('x-amz-signature', registered.upload_parameters['x-amz-signature']!);
    expect((await fetch(registered.upload_url, { method: 'POST', body: form })).status).toBe(204);
    for (let read = 0; read < 2; read++) await fetch(`${sandbox.url}/pinterest/v5/media/${registered.media_id}`, { headers: { authorization: 'Bearer sandbox-acme' } });
    expect(await pin({ media_id: registered.media_id })).toMatchObject({ status: 400, body: { message: expect.stringContaining('cover_image_url or cover_image_key_frame_time') } });
    expect(await pin({ media_id: registered.media_id, cover_image_key_frame_time: 0 })).toMatchObject({ status: 201 });
  });

  it('refuses, without calling Pinterest, a pin without media, more than 5 images or two videos', async () => {
    const six = ['a.jpg', 'b.png', 'c.webp', 'd.jpg', 'e.jpg', 'f.jpg'].map(image);
    for (const media of [[], six, [video('clip.mp4'), video('clip.mp4')]]) {
      await expect(connector().publish({ target, parts: [part('bad media', { media })] })).rejects.toMatchObject({ kind: 'rejected' });
    }
    expect(sandbox.state.requests).toEqual([]);
  });

  it('classifies failures: 5xx transient, 429 rate limited with the hint, bad token auth, 400 rejected, dropped answer unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('pinterest', fault as never);
      const error = await connector()
        .publish({ target, parts: [part(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const rejected = await connector()
      .publish({ target, parts: [part('x'.repeat(501))] })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400 });
  });

  it("finds a pin whose answer was lost on the post's board, so it is not published twice", async () => {
    const since = new Date();
    const onBoard = (body: string) => part(body, { options: { board_id: sandboxBoardId('acme', 2) } });
    sandbox.state.addFault('pinterest', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [onBoard('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const found = await connector().findPublished({ target, parts: [onBoard('maybe sent')] }, since);
    expect(found?.platformPostId).toBe(pins()[0]?.id);
    expect(await connector().findPublished({ target, parts: [onBoard('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [onBoard('maybe sent')] }, new Date(Date.now() + 5000))).toBeNull();
  });

  it('deletes, reads metrics and validates credentials', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [part('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 120, likes: 8, replies: 2, reposts: 5, clicks: 3 });
    await connector().delete(target, platformPostId);
    expect(pins()).toEqual([]);
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

it('reports a post that no longer exists on the platform as gone, so its fetches stop instead of being retried', async () => {
  await expectGoneOnceRemoved(sandbox, connector(), { target, parts: [part('vanishes')] });
});
