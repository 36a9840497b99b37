import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { CAPABILITIES, checkMediaFacts, ruleAccepts, type MediaFacts, type MediaRule } from '@spa/platforms';
import { makeImage, makeVideo } from '@spa/testing/media';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaTools } from '../convert/index.js';
import { MongoMediaStore } from '../data/mongo-store.js';
import { LocalDiskStorage } from '../storage/local-disk.js';
import { createMediaHttpServer } from '../http/server.js';
import { detectType } from './inspect.js';
import { deleteMedia } from './manage-media.js';
import type { MediaDeps, MediaTools } from './ports.js';
import { prepareMedia, type PreparedMedia } from './prepare-media.js';
import { uploadMedia } from './upload-media.js';

// Real bytes through sharp and Debian's ffmpeg, on the real store and local disk.
let connection: Connection;
let dir: string;
let deps: MediaDeps;
let conversions = 0;
beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_media_prepare_${randomBytes(4).toString('hex')}`);
  await syncIndexes(connection);
  dir = await mkdtemp(path.join(tmpdir(), 'prepare-'));
  const tools = mediaTools({ maxImagePixels: 1e8, probeTimeoutMs: 30_000, convertTimeoutMs: 120_000 });
  const counted: MediaTools = { probe: tools.probe, convert: (...args) => ((conversions += 1), tools.convert(...args)) };
  deps = {
    store: new MongoMediaStore(connection),
    storage: new LocalDiskStorage(path.join(dir, 'objects'), 'http://media.test/media', 'k'.repeat(32)),
    accounts: { hasConnectedAccount: async () => true },
    tools: counted,
    clock: { now: () => new Date() },
    newId: randomUUID,
    stagingDir: path.join(dir, 'staging'),
    maxImagePixels: 1e8,
    maxImageBytes: 50_000_000,
    presignTtlS: 3600,
    variantLeaseMs: 2_000,
  };
});
afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Uploads real bytes as a client would (for `platform`), answering the stored key. */
async function upload(bytes: Buffer, contentType: string, platform = 'twitter'): Promise<string> {
  async function* parts() {
    yield { workspaceId: 7, platform, contentType };
    for (let i = 0; i < bytes.length; i += 1 << 20) yield { chunk: bytes.subarray(i, i + (1 << 20)) };
    yield { complete: true };
  }
  return (await uploadMedia(deps, parts())).key;
}

/** What the stored bytes of a prepared file are, read back from storage (never from what prepare said). */
async function readBack(prepared: PreparedMedia): Promise<{ bytes: Buffer; type: string | undefined }> {
  const object = await deps.storage.get(prepared.key);
  const bytes = await buffer(object!.body);
  return { bytes, type: (await detectType(bytes))?.contentType };
}

const ruleOf = (platform: Platform, kind: 'image' | 'video'): MediaRule => CAPABILITIES[platform].media![kind]!;
const fits = (platform: Platform, facts: MediaFacts) => expect(checkMediaFacts(platform, facts, 'media')).toEqual([]);

describe('images made to fit a platform', () => {
  it('a PNG uploaded for Instagram is stored as it is, and published as a JPEG variant', async () => {
    const key = await upload(await makeImage({ format: 'png', width: 1080, height: 1080 }), 'image/png', 'instagram');
    expect((await deps.store.find(key))?.facts).toMatchObject({ kind: 'image', content_type: 'image/png', width: 1080, height: 1080, frames: 1 });
    const prepared = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
    expect(prepared).toMatchObject({ converted: true, facts: { content_type: 'image/jpeg', width: 1080, height: 1080 } });
    expect(prepared.key).toMatch(new RegExp(`^${key.replace(/\./g, '\\.')}\\.variants/[0-9a-f]{16}\\.jpg$`));
    expect((await readBack(prepared)).type).toBe('image/jpeg');
    fits('instagram', prepared.facts);
  });

  it('WebP, AVIF and TIFF become JPEG, and an animated GIF its first frame, where the platform takes none of them', async () => {
    for (const format of ['webp', 'avif', 'tiff'] as const) {
      const key = await upload(await makeImage({ format, width: 800, height: 800 }), `image/${format}`);
      const prepared = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
      expect(prepared.facts).toMatchObject({ content_type: 'image/jpeg', width: 800, height: 800 });
      expect((await readBack(prepared)).type).toBe('image/jpeg');
    }
    const gifKey = await upload(await makeImage({ format: 'gif', width: 300, height: 300, frames: 6 }), 'image/gif');
    expect((await deps.store.find(gifKey))?.facts?.frames).toBe(6);
    const gif = await prepareMedia(deps, { key: gifKey, platform: 'instagram', fit: '' });
    expect(gif.facts).toMatchObject({ content_type: 'image/jpeg', width: 300, height: 300, frames: 1 });
    fits('instagram', gif.facts);
  });

  it('an aspect ratio outside the range is padded by default and cropped when the post asks', async () => {
    const rule = ruleOf('instagram', 'image');
    expect(rule.min_aspect_ratio).toBeDefined();
    const key = await upload(await makeImage({ format: 'jpeg', width: 400, height: 1000 }), 'image/jpeg', 'instagram');
    const padded = await prepareMedia(deps, { key, platform: 'instagram', fit: 'pad' });
    const cropped = await prepareMedia(deps, { key, platform: 'instagram', fit: 'crop' });
    // Padding keeps every pixel (the height stays), cropping keeps the width.
    expect(padded.facts.height).toBe(1000);
    expect(padded.facts.width! / padded.facts.height!).toBeCloseTo(rule.min_aspect_ratio!, 2);
    expect(cropped.facts.width).toBe(400);
    expect(cropped.facts.width! / cropped.facts.height!).toBeCloseTo(rule.min_aspect_ratio!, 2);
    expect(padded.key).not.toBe(cropped.key);
    fits('instagram', padded.facts);
    fits('instagram', cropped.facts);
  });

  it('an image over the byte limit is re-encoded under it', async () => {
    const limit = ruleOf('instagram', 'image').max_bytes;
    const big = await makeImage({ format: 'png', width: 2400, height: 2400, minBytes: limit + 1 });
    expect(big.length).toBeGreaterThan(limit);
    const prepared = await prepareMedia(deps, { key: await upload(big, 'image/png'), platform: 'instagram', fit: '' });
    const stored = await readBack(prepared);
    expect(stored.bytes.length).toBeLessThanOrEqual(limit);
    expect(stored.bytes.length).toBe(prepared.facts.bytes);
    fits('instagram', prepared.facts);
  });

  it('a variant is served by key like its original (platforms that pull media fetch it), and removed with it', async () => {
    const key = await upload(await makeImage({ format: 'webp', width: 640, height: 640 }), 'image/webp');
    const prepared = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
    const server = createMediaHttpServer(deps, { signingKey: 'k'.repeat(32), logger: createLogger('media-test', 'silent') });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/`;
      const res = await fetch(base + prepared.key);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await res.arrayBuffer()).equals((await readBack(prepared)).bytes)).toBe(true);
      await deleteMedia(deps, 7, key, undefined);
      expect((await fetch(base + prepared.key)).status).toBe(404);
      expect(await deps.store.variantsOf(key)).toEqual([]);
      expect(await deps.storage.head(prepared.key)).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an image that already fits is used as it is, with no variant', async () => {
    const key = await upload(await makeImage({ format: 'jpeg', width: 1080, height: 1080 }), 'image/jpeg', 'instagram');
    const prepared = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
    expect(prepared).toMatchObject({ key, converted: false });
    expect(await deps.store.variantsOf(key)).toEqual([]);
  });
});

describe('videos made to fit a platform', () => {
  it('a MOV in HEVC becomes an MP4 in H.264 for a platform that takes MP4 H.264 only', async () => {
    const platform = PLATFORMS.find((p) => {
      const rule = CAPABILITIES[p].media?.video;
      return rule && !ruleAccepts(rule, 'video/quicktime') && !rule.video_codecs?.includes('hevc') && (rule.max_duration_s ?? Infinity) > 10;
    })!;
    const key = await upload(await makeVideo({ container: 'mov', codec: 'hevc', width: 320, height: 240, seconds: 4 }), 'video/quicktime');
    expect((await deps.store.find(key))?.facts).toMatchObject({ kind: 'video', content_type: 'video/quicktime', video_codec: 'hevc', audio_codec: 'aac', width: 320, height: 240 });
    const prepared = await prepareMedia(deps, { key, platform, fit: '' });
    expect(prepared.facts).toMatchObject({ content_type: 'video/mp4', video_codec: 'h264', audio_codec: 'aac', width: 320, height: 240 });
    expect(prepared.facts.duration_s).toBeCloseTo(4, 0);
    expect((await readBack(prepared)).type).toBe('video/mp4');
    fits(platform, prepared.facts);
  });

  it('120 fps becomes the platform maximum', async () => {
    const max = ruleOf('instagram', 'video').max_fps!;
    const key = await upload(await makeVideo({ width: 320, height: 240, seconds: 4, fps: 120 }), 'video/mp4', 'instagram');
    const prepared = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
    expect(prepared.facts.fps).toBe(max);
    expect(prepared.facts.video_codec).toBe('h264');
    fits('instagram', prepared.facts);
  });

  it('a video longer than the platform takes is refused with the rule, never cut, and nothing is made', async () => {
    const [platform, rule] = PLATFORMS.flatMap((p) => {
      const video = CAPABILITIES[p].media?.video;
      return video?.max_duration_s !== undefined ? [[p, video] as const] : [];
    }).sort((a, b) => a[1].max_duration_s! - b[1].max_duration_s!)[0]!;
    const key = await upload(await makeVideo({ width: 64, height: 64, seconds: rule.max_duration_s! + 2, fps: 5, audio: false }), 'video/mp4', 'twitter');
    const before = conversions;
    await expect(prepareMedia(deps, { key, platform, fit: '' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: expect.stringMatching(new RegExp(`the maximum is ${rule.max_duration_s} s \\(max_duration_s\\).*on ${platform}`)),
    });
    expect(conversions).toBe(before);
    expect(await deps.store.variantsOf(key)).toEqual([]);
  });
});

describe('one variant per file and preset', () => {
  it('prepares asked at once make the variant once and all get it', async () => {
    const key = await upload(await makeImage({ format: 'png', width: 900, height: 900 }), 'image/png');
    const before = conversions;
    const all = await Promise.all(Array.from({ length: 4 }, () => prepareMedia(deps, { key, platform: 'instagram', fit: '' })));
    expect(conversions - before).toBe(1);
    expect(new Set(all.map((p) => p.key)).size).toBe(1);
    expect(await deps.store.variantsOf(key)).toEqual([expect.objectContaining({ key: all[0]!.key, status: 'ready' })]);
    // Later callers reuse it without converting.
    await prepareMedia(deps, { key, platform: 'instagram', fit: 'pad' });
    expect(conversions - before).toBe(1);
  });

  it('a claim left by a maker that died does not block: it is taken over after its lease', async () => {
    const key = await upload(await makeImage({ format: 'webp', width: 500, height: 500 }), 'image/webp');
    const first = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
    // As if the maker died mid-conversion: the record is back to `converting`, its lease long gone, nothing stored.
    await deps.store.dropVariant(first.key);
    await deps.storage.delete(first.key);
    const old = new Date(Date.now() - 60_000);
    expect(await deps.store.claimVariant({ key: first.key, sourceKey: key, presetId: 'x', status: 'converting', createdAt: old, aliveAt: old })).toBe(true);
    const again = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
    expect(again.key).toBe(first.key);
    expect((await readBack(again)).type).toBe('image/jpeg');
    expect(await readdir(deps.stagingDir)).toEqual([]);
  });

  it('a failed conversion leaves nothing behind, and the next call converts again', async () => {
    const key = await upload(await makeImage({ format: 'png', width: 600, height: 600 }), 'image/png');
    const failing: MediaDeps = { ...deps, tools: { ...deps.tools, convert: async () => Promise.reject(new Error('ffmpeg: killed')) } };
    await expect(prepareMedia(failing, { key, platform: 'instagram', fit: '' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: expect.stringContaining('could not be converted to image/jpeg (ffmpeg: killed)'),
    });
    expect(await deps.store.variantsOf(key)).toEqual([]);
    expect((await prepareMedia(deps, { key, platform: 'instagram', fit: '' })).converted).toBe(true);
  });

  it('a record stored before facts were kept is probed when first prepared', async () => {
    const key = await upload(await makeImage({ format: 'jpeg', width: 700, height: 700 }), 'image/jpeg');
    await connection.collection('media').updateOne({ _id: key as never }, { $unset: { facts: 1 } });
    expect((await deps.store.find(key))?.facts).toBeUndefined();
    const prepared = await prepareMedia(deps, { key, platform: 'instagram', fit: '' });
    expect(prepared).toMatchObject({ key, converted: false, facts: { content_type: 'image/jpeg', width: 700, height: 700 } });
    expect((await deps.store.find(key))?.facts).toMatchObject({ width: 700 });
  });
});
