import { writeFile } from 'node:fs/promises';
import type { MediaFacts } from '@spa/platforms';
import sharp, { type Sharp } from 'sharp';
import type { ImagePreset } from '../domain/presets.js';
import { runTool } from './run.js';

/** Encoder qualities tried in turn until the file is under the byte limit. */
const QUALITIES = [88, 78, 68, 58, 48, 38];
/** Then the picture is made smaller, by this factor per round, at most this many rounds. */
const SHRINK = 0.8;
const SHRINK_ROUNDS = 6;
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

function encode(image: Sharp, to: string, quality: number): Sharp {
  switch (to) {
    case 'image/jpeg':
      return image.flatten({ background: WHITE }).jpeg({ quality, mozjpeg: true });
    case 'image/png':
      // Lossless first; lower "qualities" quantise to a palette, the PNG way of losing detail for bytes.
      return quality >= QUALITIES[0]! ? image.png({ compressionLevel: 9 }) : image.png({ compressionLevel: 9, palette: true, quality });
    case 'image/webp':
      return image.webp({ quality });
    case 'image/gif':
      return image.gif({ effort: 7 });
    case 'image/avif':
      return image.avif({ quality: Math.max(20, quality - 30) });
    case 'image/tiff':
      return image.tiff({ quality, compression: 'jpeg' });
    default:
      throw new Error(`cannot write ${to}`);
  }
}

/**
 * Converts an image (sharp) to a preset: auto-oriented, the first frame of an animation where asked, framed to
 * the preset's size (padded with white, or cropped at the centre), then encoded with the highest quality that
 * fits the byte limit, shrinking the picture (never under the minimum sides) when no quality does.
 * BMP, which sharp does not read, is first decoded by ffmpeg.
 */
export async function convertImage(input: string, source: MediaFacts, preset: ImagePreset, output: string, opts: { maxPixels: number; timeoutMs: number }): Promise<void> {
  let path = input;
  if (source.content_type === 'image/bmp') {
    path = `${output}.decoded.png`;
    await runTool('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-frames:v', '1', '-f', 'image2', '-c:v', 'png', path], opts.timeoutMs);
  }
  const animated = (source.frames ?? 1) > 1 && !preset.firstFrame;
  const framed = (width: number, height: number): Sharp => {
    const image = sharp(path, { limitInputPixels: opts.maxPixels, animated, ...(preset.firstFrame ? { pages: 1 } : {}) }).rotate();
    if (preset.mode === 'pad') return image.resize(width, height, { fit: 'contain', background: WHITE });
    if (preset.mode === 'crop') return image.resize(width, height, { fit: 'cover', position: 'centre' });
    return width === source.width && height === source.height ? image : image.resize(width, height, { fit: 'fill' });
  };
  let width = preset.width;
  let height = preset.height;
  let smallest: Buffer | undefined;
  for (let round = 0; round <= SHRINK_ROUNDS; round++) {
    for (const quality of QUALITIES) {
      const bytes = await encode(framed(width, height), preset.to, quality).toBuffer();
      if (!smallest || bytes.length < smallest.length) smallest = bytes;
      if (bytes.length <= preset.maxBytes) return writeFile(output, bytes);
      // A format without a quality setting gains nothing from the next one.
      if (preset.to === 'image/gif') break;
    }
    const next = { width: Math.floor(width * SHRINK), height: Math.floor(height * SHRINK) };
    if (next.width < (preset.minWidth ?? 1) || next.height < (preset.minHeight ?? 1)) break;
    ({ width, height } = next);
  }
  // Nothing fits: the smallest is written, and the check of its facts names the limit it still breaks.
  await writeFile(output, smallest!);
}
