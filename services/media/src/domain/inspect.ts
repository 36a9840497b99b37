import { open } from 'node:fs/promises';
import { invalidParameters } from '@spa/errors';
import type { UploadKind } from '@spa/platforms';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

/** Bytes needed to recognise any format file-type knows (its own sample size). */
export const SNIFF_BYTES = 4100;

/** The type found in a file's first bytes. */
export interface Sniffed {
  contentType: string;
  ext: string;
  kind: UploadKind;
}

/** Spellings of one type that clients declare; compared in their canonical form. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/apng': 'image/png',
  'image/x-png': 'image/png',
  'image/x-ms-bmp': 'image/bmp',
  'video/x-quicktime': 'video/quicktime',
};

export const canonicalType = (contentType: string): string => {
  const bare = contentType.split(';')[0]!.trim().toLowerCase();
  return ALIASES[bare] ?? bare;
};

/** The type file-type reads in a file's first bytes (magic numbers), canonical; undefined when it knows none. */
export async function detectType(head: Uint8Array): Promise<{ contentType: string; ext: string } | undefined> {
  const found = await fileTypeFromBuffer(head);
  return found && { contentType: canonicalType(found.mime), ext: found.mime === 'image/apng' ? 'png' : found.ext };
}

/**
 * The real type of a file from its first bytes (magic numbers, never the declared type). Only images
 * and videos are media; text formats (SVG, HTML, XML) have no magic number and are refused here.
 */
export async function sniffType(head: Uint8Array): Promise<Sniffed> {
  const found = await detectType(head);
  const kind = found?.contentType.startsWith('image/') ? 'image' : found?.contentType.startsWith('video/') ? 'video' : undefined;
  if (!found || !kind) {
    throw invalidParameters([`media: the bytes are not a recognised image or video (${found ? `found ${found.contentType}` : 'unknown format'}; SVG, HTML and other text are not accepted)`]);
  }
  return { ...found, kind };
}

/** BMP is not a sharp input format: its header is read directly (BITMAPINFOHEADER width/height). */
async function bmpSize(path: string): Promise<{ width: number; height: number }> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(26), 0, 26, 0);
    if (bytesRead < 26) throw new Error('truncated BMP header');
    return { width: Math.abs(buffer.readInt32LE(18)), height: Math.abs(buffer.readInt32LE(22)) };
  } finally {
    await file.close();
  }
}

/**
 * An image's dimensions (as displayed: an EXIF orientation that turns it is applied) and frame count from its
 * header only (no decode), refusing one whose declared size exceeds `maxPixels` (a decompression bomb: a few KB
 * that would decode to gigabytes).
 */
export async function imageSize(path: string, contentType: string, maxPixels: number): Promise<{ width: number; height: number; frames: number }> {
  let size: { width: number; height: number; frames: number };
  try {
    if (contentType === 'image/bmp') size = { ...(await bmpSize(path)), frames: 1 };
    else {
      // Header only: nothing is decoded, here or later; limitInputPixels refuses a bomb from its header.
      const meta = await sharp(path, { limitInputPixels: maxPixels, sequentialRead: true }).metadata();
      const frames = meta.pages ?? 1;
      const [width, height] = [meta.width ?? 0, meta.pageHeight ?? meta.height ?? 0];
      size = (meta.orientation ?? 1) >= 5 ? { width: height, height: width, frames } : { width, height, frames };
    }
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw invalidParameters([`media: the image header declares more than the ${maxPixels} pixels accepted (a decompression bomb)`]);
    }
    throw invalidParameters([`media: the ${contentType} image could not be read (${err instanceof Error ? err.message : String(err)})`]);
  }
  if (size.width <= 0 || size.height <= 0) throw invalidParameters([`media: the ${contentType} image declares no dimensions`]);
  const pixels = size.width * size.height * size.frames;
  if (pixels > maxPixels) {
    throw invalidParameters([`media: the image declares ${size.width}x${size.height}${size.frames > 1 ? ` x ${size.frames} frames` : ''} pixels, more than the ${maxPixels} accepted`]);
  }
  return size;
}

/** The first bytes of a file (for sniffing its type). */
export async function headOf(path: string, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
