import type { InspectedMedia } from './inspect.js';

/**
 * One platform's documented rule for one kind of media, as its stand-in enforces it. Kept apart from the
 * capability table in `@spa/platforms` on purpose: the stand-in states the platform's rules on its own,
 * each with its source (the platform's documentation), so that a mistake in our table is caught here.
 */
export interface SandboxMediaRule {
  /** Accepted MIME types, as the platform sniffs them from the bytes. */
  types: readonly string[];
  max_bytes: number;
  min_width?: number;
  min_height?: number;
  max_width?: number;
  max_height?: number;
  max_pixels?: number;
  /** Width / height bounds, inclusive (a small tolerance of 0.01 is allowed, as platforms round). */
  min_aspect?: number;
  max_aspect?: number;
  min_duration_s?: number;
  max_duration_s?: number;
  min_fps?: number;
  max_fps?: number;
  video_codecs?: readonly string[];
  audio_codecs?: readonly string[];
  max_frames?: number;
  /** The documentation page the rule comes from. */
  source: string;
}

const ASPECT_TOLERANCE = 0.01;

/** The first rule the file breaks, worded as a platform's error message would; undefined when it passes. */
export function mediaViolation(media: InspectedMedia, rule: SandboxMediaRule): string | undefined {
  if (!rule.types.includes(media.content_type)) return `unsupported media type ${media.content_type} (accepted: ${rule.types.join(', ')})`;
  if (media.bytes > rule.max_bytes) return `file size ${media.bytes} bytes exceeds the limit of ${rule.max_bytes}`;
  if (media.kind === 'unknown' || media.kind === 'document') return undefined;
  const { width, height } = media;
  const needsSize = rule.min_width ?? rule.min_height ?? rule.max_width ?? rule.max_height ?? rule.max_pixels ?? rule.min_aspect ?? rule.max_aspect;
  if (needsSize !== undefined && (!width || !height)) return 'the media could not be decoded (no dimensions)';
  if (width && height) {
    if (rule.min_width !== undefined && width < rule.min_width) return `width ${width}px is below the minimum of ${rule.min_width}px`;
    if (rule.min_height !== undefined && height < rule.min_height) return `height ${height}px is below the minimum of ${rule.min_height}px`;
    if (rule.max_width !== undefined && width > rule.max_width) return `width ${width}px exceeds the maximum of ${rule.max_width}px`;
    if (rule.max_height !== undefined && height > rule.max_height) return `height ${height}px exceeds the maximum of ${rule.max_height}px`;
    if (rule.max_pixels !== undefined && width * height > rule.max_pixels) return `${width}x${height} exceeds the maximum of ${rule.max_pixels} pixels`;
    const aspect = width / height;
    if (rule.min_aspect !== undefined && aspect < rule.min_aspect - ASPECT_TOLERANCE) return `aspect ratio ${aspect.toFixed(3)} is below the minimum of ${rule.min_aspect}`;
    if (rule.max_aspect !== undefined && aspect > rule.max_aspect + ASPECT_TOLERANCE) return `aspect ratio ${aspect.toFixed(3)} exceeds the maximum of ${rule.max_aspect}`;
  }
  if (media.kind === 'image') {
    if (rule.max_frames !== undefined && (media.frames ?? 1) > rule.max_frames) return `animated image with ${media.frames} frames; at most ${rule.max_frames} accepted`;
    return undefined;
  }
  if (media.duration_s === undefined || !media.video_codec) return 'the video could not be processed (unreadable container or stream)';
  if (rule.min_duration_s !== undefined && media.duration_s < rule.min_duration_s) return `video duration ${media.duration_s}s is below the minimum of ${rule.min_duration_s}s`;
  if (rule.max_duration_s !== undefined && media.duration_s > rule.max_duration_s) return `video duration ${media.duration_s}s exceeds the maximum of ${rule.max_duration_s}s`;
  if (rule.video_codecs && !rule.video_codecs.includes(media.video_codec)) return `video codec ${media.video_codec} is not supported (accepted: ${rule.video_codecs.join(', ')})`;
  if (rule.audio_codecs && media.audio_codec && !rule.audio_codecs.includes(media.audio_codec)) return `audio codec ${media.audio_codec} is not supported (accepted: ${rule.audio_codecs.join(', ')})`;
  if (media.fps !== undefined) {
    if (rule.max_fps !== undefined && media.fps > rule.max_fps + 0.01) return `frame rate ${media.fps} fps exceeds the maximum of ${rule.max_fps}`;
    if (rule.min_fps !== undefined && media.fps < rule.min_fps - 0.01) return `frame rate ${media.fps} fps is below the minimum of ${rule.min_fps}`;
  }
  return undefined;
}
