import { stat } from 'node:fs/promises';
import { invalidParameters } from '@spa/errors';
import type { MediaFacts } from '@spa/platforms';
import { imageSize } from '../domain/inspect.js';
import { runTool } from './run.js';

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

/** A video's facts from ffprobe: container duration, the first video stream's size, frame rate and codec, the first audio stream's codec. */
export async function probeVideo(path: string, contentType: string, timeoutMs: number): Promise<MediaFacts> {
  const bytes = (await stat(path)).size;
  let probe: { format?: { duration?: string }; streams?: ProbeStream[] };
  try {
    probe = JSON.parse(await runTool('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], timeoutMs)) as typeof probe;
  } catch (err) {
    throw invalidParameters([`media: the ${contentType} video could not be read (${err instanceof Error ? err.message : String(err)})`]);
  }
  const video = probe.streams?.find((s) => s.codec_type === 'video');
  const audio = probe.streams?.find((s) => s.codec_type === 'audio');
  const duration = Number(probe.format?.duration);
  if (!video?.codec_name || !Number.isFinite(duration)) throw invalidParameters([`media: the ${contentType} file has no readable video stream`]);
  const fps = rate(video.avg_frame_rate) ?? rate(video.r_frame_rate);
  return {
    kind: 'video',
    content_type: contentType,
    bytes,
    ...(video.width && video.height ? { width: video.width, height: video.height } : {}),
    duration_s: Math.round(duration * 1000) / 1000,
    ...(fps !== undefined ? { fps } : {}),
    video_codec: video.codec_name,
    ...(audio?.codec_name ? { audio_codec: audio.codec_name } : {}),
  };
}

/** An image's facts from its header only (sharp; BMP read directly): size and frames; a decompression bomb is refused. */
export async function probeImage(path: string, contentType: string, maxPixels: number): Promise<MediaFacts> {
  const bytes = (await stat(path)).size;
  const size = await imageSize(path, contentType, maxPixels);
  return { kind: 'image', content_type: contentType, bytes, width: size.width, height: size.height, frames: size.frames };
}
