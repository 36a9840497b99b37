import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { makeVideo } from '@spa/testing/media';
import sharp from 'sharp';

/** A real PNG of the given size (random pixels, so it does not compress away). */
export async function png(width = 64, height = 48): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export async function jpeg(width = 64, height = 48): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
}

/** JPEG magic and a real header followed by `total` bytes in all (the size tests need big files fast). */
export async function bigJpeg(total: number): Promise<Buffer> {
  const head = await jpeg(16, 16);
  return Buffer.concat([head, randomBytes(Math.max(0, total - head.length))]);
}

/**
 * A real MP4 (H.264 and AAC, 3 s, made by ffmpeg) of at least `total` bytes: a larger size is reached with a
 * trailing `free` box, which every MP4 reader skips, so the sizes upload tests need cost no encoding time.
 */
export async function mp4(total = 64 * 1024): Promise<Buffer> {
  const video = await makeVideo({ container: 'mp4', codec: 'h264', width: 256, height: 144, seconds: 3, fps: 30 });
  const pad = total - video.length;
  if (pad < 8) return video;
  const free = Buffer.alloc(pad);
  free.writeUInt32BE(pad, 0);
  free.write('free', 4, 'ascii');
  return Buffer.concat([video, free]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A decompression bomb: a valid PNG header declaring width x height pixels, with almost no data. */
export function pngBomb(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
export const HTML = Buffer.from('<!doctype html><html><body><img src=x onerror=alert(1)></body></html>');

/**
 * A JSON upload body `{...fields, "media": "<base64 of file>"}` produced in pieces (3 MiB of the file
 * at a time), so a test can send a body of hundreds of MB without building it whole. `corrupt` puts
 * an invalid base64 character at that position of the base64 text.
 */
export function base64Body(fields: Record<string, unknown>, file: Buffer, opts: { corrupt?: number } = {}): { length: number; pieces(): Generator<Buffer> } {
  const head = Buffer.from(`${JSON.stringify(fields).slice(0, -1)}${Object.keys(fields).length ? ',' : ''}"media":"`);
  const tail = Buffer.from('"}');
  const slice = 3 * 1024 * 1024;
  return {
    length: head.length + Math.ceil(file.length / 3) * 4 + tail.length,
    *pieces() {
      yield head;
      for (let at = 0; at < file.length; at += slice) {
        const text = Buffer.from(file.subarray(at, at + slice).toString('base64'));
        const offset = (at / 3) * 4;
        if (opts.corrupt !== undefined && opts.corrupt >= offset && opts.corrupt < offset + text.length) text[opts.corrupt - offset] = 0x21; // '!'
        yield text;
      }
      yield tail;
    },
  };
}
