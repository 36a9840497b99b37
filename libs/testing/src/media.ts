import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/** Real media files for tests: made on demand (sharp for images, Debian's ffmpeg for videos), cached per shape in the temp folder. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff';

export interface ImageSpec {
  format: ImageFormat;
  width?: number;
  height?: number;
  /** GIF only: frames of an animation (default 1, a still). */
  frames?: number;
  /** Pad the file with noise so it reaches at least this many bytes (a too-large file); JPEG and PNG only. */
  minBytes?: number;
}

export interface VideoSpec {
  container?: 'mp4' | 'mov' | 'webm';
  codec?: 'h264' | 'hevc' | 'vp9';
  width?: number;
  height?: number;
  seconds?: number;
  fps?: number;
  /** Default true: an AAC (Opus in WebM) sine tone. */
  audio?: boolean;
}

export const CONTENT_TYPE_OF_IMAGE: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tiff: 'image/tiff',
};
export const CONTENT_TYPE_OF_VIDEO = { mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm' } as const;

const cacheDir = join(tmpdir(), 'spa-test-media');

async function cached(spec: object, ext: string, make: (path: string) => Promise<void>): Promise<Buffer> {
  await mkdir(cacheDir, { recursive: true });
  const name = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 20);
  const path = join(cacheDir, `${name}.${ext}`);
  const done = await stat(path).then(
    (s) => s.size > 0,
    () => false,
  );
  if (!done) {
    // Made under a unique name and renamed: parallel test files never read a half-written file.
    const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.part.${ext}`;
    await make(partial);
    await rename(partial, path);
  }
  return readFile(path);
}

/** An image of the given format and size: a gradient with noise, so every encoder has real work and sizes are realistic. */
export async function makeImage(spec: ImageSpec): Promise<Buffer> {
  const { format, width = 640, height = 480, frames = 1 } = spec;
  return cached(spec, format, async (path) => {
    const noise = spec.minBytes !== undefined;
    const frame = () =>
      sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 }, ...(noise ? { noise: { type: 'gaussian' as const, mean: 128, sigma: 60 } } : {}) } })
        .composite([
          {
            input: Buffer.from(
              `<svg width="${width}" height="${height}"><rect x="${Math.floor(width / 4)}" y="${Math.floor(height / 4)}" width="${Math.floor(width / 2)}" height="${Math.floor(height / 2)}" fill="#f5c518"/></svg>`,
            ),
          },
        ])
        .raw()
        .toBuffer();
    if (format === 'gif' && frames > 1) {
      // A tall strip of frames read as pages: an animated GIF of `frames` frames.
      const one = await frame();
      const strip = Buffer.concat(Array.from({ length: frames }, () => one));
      await sharp(strip, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
        .gif({ delay: Array<number>(frames).fill(100) })
        .toFile(path);
      return;
    }
    const image = sharp(await frame(), { raw: { width, height, channels: 3 } });
    const encoded = {
      jpeg: () => image.jpeg({ quality: noise ? 100 : 85 }),
      png: () => image.png({ compressionLevel: noise ? 0 : 6 }),
      webp: () => image.webp(),
      gif: () => image.gif(),
      avif: () => image.avif(),
      tiff: () => image.tiff(),
    }[format]();
    await encoded.toFile(path);
  });
}

/** A video of the given shape: a test pattern with a timer and (by default) a tone, made by ffmpeg. */
export async function makeVideo(spec: VideoSpec = {}): Promise<Buffer> {
  const { container = 'mp4', codec = container === 'webm' ? 'vp9' : 'h264', width = 640, height = 360, seconds = 2, fps = 30, audio = true } = spec;
  return cached({ container, codec, width, height, seconds, fps, audio }, container, async (path) => {
    const videoCodec = {
      h264: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast'],
      hevc: ['-c:v', 'libx265', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', '-tag:v', 'hvc1'],
      vp9: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'],
    }[codec];
    const audioIn = audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : [];
    const audioCodec = audio ? (container === 'webm' ? ['-c:a', 'libopus'] : ['-c:a', 'aac']) : ['-an'];
    await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
        ...audioIn,
        ...videoCodec,
        ...audioCodec,
        '-shortest',
        ...(container === 'webm' ? [] : ['-movflags', '+faststart']),
        '-f',
        container === 'mov' ? 'mov' : container,
        path,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  });
}
