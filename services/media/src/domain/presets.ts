import { createHash } from 'node:crypto';
import { ruleAccepts, type MediaFacts, type MediaRule } from '@spa/platforms';

/** How a picture whose aspect ratio is outside a platform's range is made to fit: padded (default) or cropped. */
export type Fit = 'pad' | 'crop';

/** How the source fills the output frame: resized as it is (same aspect), padded, or cropped at the centre. */
export type FrameMode = 'scale' | 'pad' | 'crop';

/** An image conversion: the output type and pixel size, and the byte limit its encoding must stay under. */
export interface ImagePreset {
  kind: 'image';
  to: string;
  width: number;
  height: number;
  mode: FrameMode;
  /** An animation becomes its first frame. */
  firstFrame: boolean;
  /** Re-encoded with lower quality (then fewer pixels, never under the minimum sides) until under it. */
  maxBytes: number;
  minWidth?: number;
  minHeight?: number;
}

/** A video conversion (ffmpeg): what is re-encoded, and to what. Everything not named is kept. */
export interface VideoPreset {
  kind: 'video';
  to: string;
  video: 'copy' | 'h264';
  audio: 'copy' | 'aac' | 'none';
  fps?: number;
  width?: number;
  height?: number;
  mode?: FrameMode;
  /** Video bits per second when the file must shrink under the platform's byte limit. */
  videoBitrate?: number;
}

export type Preset = ImagePreset | VideoPreset;

export type Decision = { action: 'use' } | { action: 'convert'; preset: Preset } | { action: 'refuse'; reasons: string[] };

/** Image types the pipeline writes (sharp), and video containers (ffmpeg), in the order preferred when a platform lists several. */
const WRITABLE_IMAGE = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'];
const WRITABLE_VIDEO = ['video/mp4', 'video/quicktime'];
/** Codecs every platform taking MP4 plays when its rule names none: a file remuxed into MP4 carries these or is re-encoded. */
const MP4_VIDEO = ['h264'];
const MP4_AUDIO = ['aac', 'mp3'];
/** The tolerance of checkMediaFacts: an aspect within it is not converted. */
const ASPECT_TOLERANCE = 0.005;
const FPS_TOLERANCE = 0.01;
const AUDIO_BITS = 128_000;

const EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};

/** The file extension of a preset's output. */
export const presetExt = (preset: Preset): string => EXT[preset.to] ?? 'bin';

/** Bumped when the conversion of an unchanged preset changes, so older variants are not reused. */
const PRESET_VERSION = 1;

/** A stable id of a preset: equal presets (from any platform) share one variant. */
export function presetId(preset: Preset): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: PRESET_VERSION, ...preset }))
    .digest('hex')
    .slice(0, 16);
}

/** The first type of the rule the pipeline can write (a platform lists the type it prefers first). */
function outputType(rule: MediaRule, writable: readonly string[]): string | undefined {
  return rule.content_types.find((t) => writable.includes(t)) ?? writable.find((t) => ruleAccepts(rule, t));
}

interface Frame {
  width: number;
  height: number;
  mode: FrameMode;
}

/**
 * The output frame of a picture of `width` x `height` under a rule: an aspect ratio outside the rule's range
 * is padded or cropped to the nearest bound, then the frame is scaled down into the maximum sides and pixels, or up
 * to the minimum sides (never past a maximum).
 */
export function frameFor(rule: MediaRule, width: number, height: number, fit: Fit): Frame {
  let w = width;
  let h = height;
  let mode: FrameMode = 'scale';
  const aspect = width / height;
  if (rule.min_aspect_ratio !== undefined && aspect < rule.min_aspect_ratio - ASPECT_TOLERANCE) {
    mode = fit;
    if (fit === 'pad') w = height * rule.min_aspect_ratio;
    else h = width / rule.min_aspect_ratio;
  } else if (rule.max_aspect_ratio !== undefined && aspect > rule.max_aspect_ratio + ASPECT_TOLERANCE) {
    mode = fit;
    if (fit === 'pad') h = width / rule.max_aspect_ratio;
    else w = height * rule.max_aspect_ratio;
  }
  const down = Math.min(
    rule.max_width !== undefined ? rule.max_width / w : Infinity,
    rule.max_height !== undefined ? rule.max_height / h : Infinity,
    rule.max_pixels !== undefined ? Math.sqrt(rule.max_pixels / (w * h)) : Infinity,
  );
  const up = Math.max(rule.min_width !== undefined ? rule.min_width / w : 0, rule.min_height !== undefined ? rule.min_height / h : 0);
  let scale = 1;
  if (down < 1) scale = down;
  else if (up > 1) scale = Math.min(up, down);
  const round = (n: number, max: number | undefined, min: number | undefined) => {
    let v = scale < 1 ? Math.floor(n * scale) : scale > 1 ? Math.ceil(n * scale) : Math.round(n);
    if (max !== undefined) v = Math.min(v, max);
    if (min !== undefined && scale >= 1) v = Math.max(v, min);
    return Math.max(1, v);
  };
  return { width: round(w, rule.max_width, rule.min_width), height: round(h, rule.max_height, rule.min_height), mode };
}

function decideImage(rule: MediaRule, facts: MediaFacts, fit: Fit): Decision {
  const { width, height } = facts;
  if (!width || !height) return { action: 'refuse', reasons: ['the image declares no dimensions (it could not be read)'] };
  const accepted = ruleAccepts(rule, facts.content_type);
  const to = accepted ? facts.content_type : outputType(rule, WRITABLE_IMAGE);
  if (!to) return { action: 'refuse', reasons: [`is ${facts.content_type}; the platform takes ${rule.content_types.join(', ')}, which the media pipeline cannot write`] };
  const frames = facts.frames ?? 1;
  const firstFrame = frames > 1 && (to !== facts.content_type || (rule.max_frames !== undefined && frames > rule.max_frames));
  const frame = frameFor(rule, width, height, fit);
  const needed = to !== facts.content_type || firstFrame || frame.width !== width || frame.height !== height || facts.bytes > rule.max_bytes;
  if (!needed) return { action: 'use' };
  return {
    action: 'convert',
    preset: {
      kind: 'image',
      to,
      width: frame.width,
      height: frame.height,
      mode: frame.mode,
      firstFrame,
      maxBytes: rule.max_bytes,
      ...(rule.min_width !== undefined ? { minWidth: rule.min_width } : {}),
      ...(rule.min_height !== undefined ? { minHeight: rule.min_height } : {}),
    },
  };
}

/** H.264 in 4:2:0 needs even sides. */
const even = (n: number) => Math.max(2, n - (n % 2));
const seconds = (n: number) => String(Math.round(n * 1000) / 1000);

function decideVideo(rule: MediaRule, facts: MediaFacts, fit: Fit): Decision {
  const d = facts.duration_s;
  if (d === undefined || !facts.video_codec) return { action: 'refuse', reasons: ['could not be read as a video (no duration or no video stream)'] };
  const reasons: string[] = [];
  if (rule.max_duration_s !== undefined && d > rule.max_duration_s) {
    reasons.push(`lasts ${seconds(d)} s; the maximum is ${rule.max_duration_s} s (max_duration_s); a video is never cut`);
  }
  if (rule.min_duration_s !== undefined && d < rule.min_duration_s) {
    reasons.push(`lasts ${seconds(d)} s; the minimum is ${rule.min_duration_s} s (min_duration_s); a video is never lengthened`);
  }
  if (reasons.length) return { action: 'refuse', reasons };
  const accepted = ruleAccepts(rule, facts.content_type);
  const to = accepted ? facts.content_type : outputType(rule, WRITABLE_VIDEO);
  if (!to) return { action: 'refuse', reasons: [`is ${facts.content_type}; the platform takes ${rule.content_types.join(', ')}, which the media pipeline cannot write`] };
  const remuxed = to !== facts.content_type;
  const codecOk = rule.video_codecs ? rule.video_codecs.includes(facts.video_codec) : !remuxed || MP4_VIDEO.includes(facts.video_codec);
  const audioOk = !facts.audio_codec || (rule.audio_codecs ? rule.audio_codecs.includes(facts.audio_codec) : !remuxed || MP4_AUDIO.includes(facts.audio_codec));
  let fps: number | undefined;
  if (facts.fps !== undefined && rule.max_fps !== undefined && facts.fps > rule.max_fps + FPS_TOLERANCE) fps = rule.max_fps;
  if (facts.fps !== undefined && rule.min_fps !== undefined && facts.fps < rule.min_fps - FPS_TOLERANCE) fps = rule.min_fps;
  const frame = facts.width && facts.height ? frameFor(rule, facts.width, facts.height, fit) : undefined;
  const resized = frame !== undefined && (frame.width !== facts.width || frame.height !== facts.height);
  const tooBig = facts.bytes > rule.max_bytes;
  const reencode = !codecOk || fps !== undefined || resized || tooBig;
  if (reencode && rule.video_codecs && !rule.video_codecs.includes('h264')) {
    return { action: 'refuse', reasons: [`needs re-encoding, and the platform takes ${rule.video_codecs.join(', ')} only (the media pipeline encodes H.264)`] };
  }
  const audio = !facts.audio_codec ? 'none' : audioOk ? 'copy' : 'aac';
  if (!remuxed && !reencode && audio !== 'aac') return { action: 'use' };
  const videoBitrate = tooBig ? Math.max(100_000, Math.floor((rule.max_bytes * 8 * 0.9) / d) - (facts.audio_codec ? AUDIO_BITS : 0)) : undefined;
  return {
    action: 'convert',
    preset: {
      kind: 'video',
      to,
      video: reencode ? 'h264' : 'copy',
      audio,
      ...(fps !== undefined ? { fps } : {}),
      ...(reencode && frame ? { width: even(frame.width), height: even(frame.height), mode: frame.mode } : {}),
      ...(videoBitrate !== undefined ? { videoBitrate } : {}),
    },
  };
}

/**
 * What to do with a file (its probed facts) for a platform's rule for its kind: use it as it is, convert it to a
 * preset, or refuse it (what cannot be fixed without changing the content: a video's duration, a type the
 * pipeline cannot write). Pure: the same facts, rule and fit always give the same preset.
 */
export function decidePreset(rule: MediaRule, facts: MediaFacts, fit: Fit): Decision {
  if (facts.kind === 'image') return decideImage(rule, facts, fit);
  if (facts.kind === 'video') return decideVideo(rule, facts, fit);
  return { action: 'use' };
}
