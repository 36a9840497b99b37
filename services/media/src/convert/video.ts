import type { VideoPreset } from '../domain/presets.js';
import { runTool } from './run.js';

/** The ffmpeg filter chain that frames a video to the preset's size and frame rate. */
function filters(preset: VideoPreset): string[] {
  const chain: string[] = [];
  const { width: w, height: h } = preset;
  if (w !== undefined && h !== undefined) {
    if (preset.mode === 'pad') chain.push(`scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2`, `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black`);
    else if (preset.mode === 'crop') chain.push(`scale=${w}:${h}:force_original_aspect_ratio=increase`, `crop=${w}:${h}`);
    else chain.push(`scale=${w}:${h}`);
    chain.push('setsar=1');
  }
  if (preset.fps !== undefined) chain.push(`fps=${preset.fps}`);
  return chain.length ? ['-vf', chain.join(',')] : [];
}

/**
 * Converts a video (ffmpeg) to a preset: the first video and audio streams only, the video copied or
 * re-encoded to H.264 (4:2:0, framed and at the preset's frame rate), the audio copied, re-encoded to AAC or
 * absent as the source, in an MP4 or MOV container with its index first (platforms that stream read it first).
 */
export async function convertVideo(input: string, preset: VideoPreset, output: string, timeoutMs: number): Promise<void> {
  const video =
    preset.video === 'copy'
      ? ['-c:v', 'copy']
      : [
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-pix_fmt',
          'yuv420p',
          '-profile:v',
          'high',
          ...(preset.videoBitrate !== undefined ? ['-b:v', String(preset.videoBitrate), '-maxrate', String(preset.videoBitrate), '-bufsize', String(preset.videoBitrate * 2)] : ['-crf', '21']),
          ...filters(preset),
        ];
  const audio = preset.audio === 'none' ? ['-an'] : preset.audio === 'copy' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k'];
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    input,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    ...video,
    ...audio,
    '-movflags',
    '+faststart',
    '-f',
    preset.to === 'video/quicktime' ? 'mov' : 'mp4',
    output,
  ];
  await runTool('ffmpeg', args, timeoutMs);
}
