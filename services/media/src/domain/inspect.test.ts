import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML, jpeg, png, pngBomb, SVG } from '../../../../tests/support/media-files.js';

/** The first box of an MP4 (`ftyp`, brand isom): all that sniffing reads. */
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2')]);
import { imageSize, sniffType } from './inspect.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'inspect-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
const file = async (name: string, bytes: Buffer) => {
  const p = path.join(dir, name);
  await writeFile(p, bytes);
  return p;
};

describe('sniffType', () => {
  it('finds the real type from the bytes', async () => {
    expect(await sniffType(await png())).toEqual({ contentType: 'image/png', ext: 'png', kind: 'image' });
    expect(await sniffType(await jpeg())).toEqual({ contentType: 'image/jpeg', ext: 'jpg', kind: 'image' });
    expect(await sniffType(MP4_HEAD)).toMatchObject({ contentType: 'video/mp4', kind: 'video' });
  });

  it('refuses SVG, HTML and unknown bytes', async () => {
    for (const bytes of [SVG, HTML, Buffer.from('hello world'), Buffer.alloc(0)]) await expect(sniffType(bytes)).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
  });
});

describe('imageSize', () => {
  it('reads dimensions from the header', async () => {
    expect(await imageSize(await file('a.png', await png(33, 21)), 'image/png', 1e8)).toEqual({ width: 33, height: 21, frames: 1 });
  });

  it('refuses a decompression bomb from its header, quickly and without decoding', async () => {
    const started = Date.now();
    await expect(imageSize(await file('bomb.png', pngBomb()), 'image/png', 1e8)).rejects.toThrow(/more than the 100000000 pixels/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an image whose bytes are not readable', async () => {
    const broken = Buffer.concat([(await png()).subarray(0, 20)]);
    await expect(imageSize(await file('broken.png', broken), 'image/png', 1e8)).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
  });
});
