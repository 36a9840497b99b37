import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { MediaFacts } from '@spa/platforms';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

const run = promisify(execFile);

/**
 * What a platform stand-in learns of an uploaded file from its bytes, as the real platform would: never from what the
 * client declared. The stand-ins read files on their own rather than through the media service's probe (which the
 * media pipeline decides its conversions by): a stand-in that shared the code under test could never catch its mistakes.
 */
export type InspectedMedia = MediaFacts | { kind: 'unknown'; content_type: string; bytes: number };

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
}

const rate = (r: string | undefined): number | undefined => {
  if (!r) return undefined;
  const [n, d] = r.split('/').map(Number);
  return n && d ? Math.round((n / d) * 100) / 100 : undefined;
};

/** A video's facts from ffprobe (Debian's `ffmpeg` package). The bytes go through a temporary file: MP4's index may sit at its end. */
async function probeVideo(bytes: Buffer, contentType: string): Promise<MediaFacts> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-probe-'));
  try {
    const file = join(dir, 'media');
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { maxBuffer: 4 * 1024 * 1024 });
    const probe = JSON.parse(stdout) as { format?: { duration?: string }; streams?: ProbeStream[] };
    const video = probe.streams?.find((s) => s.codec_type === 'video');
    const audio = probe.streams?.find((s) => s.codec_type === 'audio');
    const duration = Number(probe.format?.duration);
    return {
      kind: 'video',
      content_type: contentType,
      bytes: bytes.length,
      ...(video?.width ? { width: video.width, height: video.height ?? 0 } : {}),
      ...(Number.isFinite(duration) ? { duration_s: Math.round(duration * 1000) / 1000 } : {}),
      ...((rate(video?.avg_frame_rate) ?? rate(video?.r_frame_rate)) ? { fps: rate(video?.avg_frame_rate) ?? rate(video?.r_frame_rate)! } : {}),
      ...(video?.codec_name ? { video_codec: video.codec_name } : {}),
      ...(audio?.codec_name ? { audio_codec: audio.codec_name } : {}),
    };
  } catch {
    // ffprobe could not read it: a file that says it is a video but is not one, as a platform's transcoder would find.
    return { kind: 'video', content_type: contentType, bytes: bytes.length };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Reads an uploaded file as a platform does: its type from its magic numbers, an image's pixel size and
 * frame count (sharp), a video's duration, dimensions, frame rate and codecs (ffprobe). A video ffprobe
 * cannot read has no duration or codec: every rule that needs them refuses it.
 */
export async function inspectMedia(bytes: Buffer): Promise<InspectedMedia> {
  const found = await fileTypeFromBuffer(bytes);
  const contentType = found?.mime === 'image/apng' ? 'image/png' : (found?.mime ?? 'application/octet-stream');
  if (contentType.startsWith('video/')) return probeVideo(bytes, contentType);
  if (contentType.startsWith('image/')) {
    try {
      const meta = await sharp(bytes, { animated: true }).metadata();
      const frames = meta.pages ?? 1;
      return { kind: 'image', content_type: contentType, bytes: bytes.length, width: meta.width ?? 0, height: meta.pageHeight ?? meta.height ?? 0, frames };
    } catch {
      return { kind: 'image', content_type: contentType, bytes: bytes.length };
    }
  }
  if (contentType === 'application/pdf') return { kind: 'document', content_type: contentType, bytes: bytes.length };
  return { kind: 'unknown', content_type: contentType, bytes: bytes.length };
}
