import type { MediaFacts, MediaRule } from '@spa/platforms';
import { describe, expect, it } from 'vitest';
import { decidePreset, frameFor, presetId, type ImagePreset, type VideoPreset } from './presets.js';

const MB = 1_000_000;
const jpegOnly: MediaRule = { content_types: ['image/jpeg'], max_bytes: 8 * MB, min_aspect_ratio: 0.8, max_aspect_ratio: 1.91 };
const anyStill: MediaRule = { content_types: ['image/jpeg', 'image/png', 'image/gif'], max_bytes: 5 * MB, max_width: 4096, max_height: 4096, max_frames: 1 };
const image = (f: Partial<MediaFacts>): MediaFacts => ({ kind: 'image', content_type: 'image/jpeg', bytes: 200_000, width: 1080, height: 1080, frames: 1, ...f });
const video = (f: Partial<MediaFacts>): MediaFacts => ({
  kind: 'video',
  content_type: 'video/mp4',
  bytes: 5 * MB,
  width: 1080,
  height: 1920,
  duration_s: 20,
  fps: 30,
  video_codec: 'h264',
  audio_codec: 'aac',
  ...f,
});
const reel: MediaRule = {
  content_types: ['video/mp4', 'video/quicktime'],
  max_bytes: 300 * MB,
  max_width: 1920,
  min_duration_s: 3,
  max_duration_s: 900,
  min_fps: 23,
  max_fps: 60,
  video_codecs: ['h264', 'hevc'],
  audio_codecs: ['aac'],
};
const converted = <P>(d: ReturnType<typeof decidePreset>): P => {
  if (d.action !== 'convert') throw new Error(`expected a conversion, got ${JSON.stringify(d)}`);
  return d.preset as P;
};

describe('image presets', () => {
  it('uses an image that already fits as it is', () => {
    expect(decidePreset(jpegOnly, image({}), 'pad')).toEqual({ action: 'use' });
    expect(decidePreset(anyStill, image({ content_type: 'image/png' }), 'pad')).toEqual({ action: 'use' });
  });

  it('converts a type the platform does not take to its first type, keeping the pixels', () => {
    const preset = converted<ImagePreset>(decidePreset(jpegOnly, image({ content_type: 'image/png' }), 'pad'));
    expect(preset).toMatchObject({ to: 'image/jpeg', width: 1080, height: 1080, mode: 'scale', firstFrame: false, maxBytes: 8 * MB });
    expect(converted<ImagePreset>(decidePreset(jpegOnly, image({ content_type: 'image/webp' }), 'pad')).to).toBe('image/jpeg');
  });

  it('takes the first frame of an animation where the platform takes no GIF or one frame only', () => {
    expect(converted<ImagePreset>(decidePreset(jpegOnly, image({ content_type: 'image/gif', frames: 12 }), 'pad'))).toMatchObject({ to: 'image/jpeg', firstFrame: true });
    expect(converted<ImagePreset>(decidePreset(anyStill, image({ content_type: 'image/gif', frames: 12 }), 'pad'))).toMatchObject({ to: 'image/gif', firstFrame: true });
    const animations: MediaRule = { ...anyStill, max_frames: undefined };
    expect(decidePreset(animations, image({ content_type: 'image/gif', frames: 12 }), 'pad')).toEqual({ action: 'use' });
  });

  it('pads an aspect ratio outside the range to the nearest bound, or crops it when asked', () => {
    // 1000x2000 is 0.5, under 0.8: padded to 1600x2000, or cropped to 1000x1250.
    expect(converted<ImagePreset>(decidePreset(jpegOnly, image({ width: 1000, height: 2000 }), 'pad'))).toMatchObject({ width: 1600, height: 2000, mode: 'pad' });
    expect(converted<ImagePreset>(decidePreset(jpegOnly, image({ width: 1000, height: 2000 }), 'crop'))).toMatchObject({ width: 1000, height: 1250, mode: 'crop' });
    // 3000x1000 is 3, over 1.91: padded in height, or cropped in width.
    const wide = converted<ImagePreset>(decidePreset(jpegOnly, image({ width: 3000, height: 1000 }), 'pad'));
    expect(wide).toMatchObject({ width: 3000, height: 1571, mode: 'pad' });
    expect(wide.width / wide.height).toBeLessThanOrEqual(1.91 + 0.005);
    expect(converted<ImagePreset>(decidePreset(jpegOnly, image({ width: 3000, height: 1000 }), 'crop'))).toMatchObject({ width: 1910, height: 1000, mode: 'crop' });
  });

  it('scales into the maximum sides and pixels, and up to the minimum sides', () => {
    expect(converted<ImagePreset>(decidePreset(anyStill, image({ width: 8192, height: 4096 }), 'pad'))).toMatchObject({ width: 4096, height: 2048, mode: 'scale' });
    const pixels: MediaRule = { content_types: ['image/jpeg'], max_bytes: MB, max_pixels: 1_000_000 };
    const shrunk = converted<ImagePreset>(decidePreset(pixels, image({ width: 2000, height: 2000 }), 'pad'));
    expect(shrunk.width * shrunk.height).toBeLessThanOrEqual(1_000_000);
    const small: MediaRule = { content_types: ['image/jpeg'], max_bytes: MB, min_width: 600, min_height: 600 };
    expect(converted<ImagePreset>(decidePreset(small, image({ width: 300, height: 400 }), 'pad'))).toMatchObject({ width: 600, height: 800 });
  });

  it('re-encodes an image over the byte limit at the same size', () => {
    expect(converted<ImagePreset>(decidePreset(jpegOnly, image({ bytes: 9 * MB }), 'pad'))).toMatchObject({ to: 'image/jpeg', width: 1080, height: 1080, maxBytes: 8 * MB });
  });

  it('refuses an image without dimensions', () => {
    expect(decidePreset(jpegOnly, image({ width: undefined, height: undefined }), 'pad').action).toBe('refuse');
  });

  it('frames keep within every bound after rounding', () => {
    for (const [w, h] of [
      [333, 1001],
      [4999, 777],
      [17, 9000],
    ] as const) {
      const f = frameFor({ ...jpegOnly, max_width: 1440, max_height: 1800 }, w, h, 'pad');
      expect(f.width).toBeLessThanOrEqual(1440);
      expect(f.height).toBeLessThanOrEqual(1800);
      expect(f.width / f.height).toBeGreaterThanOrEqual(0.8 - 0.005);
      expect(f.width / f.height).toBeLessThanOrEqual(1.91 + 0.005);
    }
  });
});

describe('video presets', () => {
  it('uses a video that fits as it is', () => {
    expect(decidePreset(reel, video({}), 'pad')).toEqual({ action: 'use' });
    expect(decidePreset(reel, video({ content_type: 'video/quicktime', video_codec: 'hevc' }), 'pad')).toEqual({ action: 'use' });
  });

  it('refuses, never cuts, a video longer or shorter than the platform takes, naming the rule', () => {
    const long = decidePreset(reel, video({ duration_s: 901 }), 'pad');
    expect(long).toEqual({ action: 'refuse', reasons: [expect.stringMatching(/lasts 901 s; the maximum is 900 s \(max_duration_s\)/)] });
    expect(decidePreset(reel, video({ duration_s: 2 }), 'pad')).toEqual({ action: 'refuse', reasons: [expect.stringMatching(/min_duration_s/)] });
  });

  it('only remuxes when the container alone is not taken and the codecs are', () => {
    const mp4Only: MediaRule = { content_types: ['video/mp4'], max_bytes: 512 * MB };
    expect(converted<VideoPreset>(decidePreset(mp4Only, video({ content_type: 'video/quicktime' }), 'pad'))).toEqual({ kind: 'video', to: 'video/mp4', video: 'copy', audio: 'copy' });
  });

  it('transcodes a codec the platform does not take to H.264 and foreign audio to AAC', () => {
    const h264Only: MediaRule = { content_types: ['video/mp4'], max_bytes: 512 * MB, video_codecs: ['h264'], audio_codecs: ['aac'] };
    const preset = converted<VideoPreset>(decidePreset(h264Only, video({ content_type: 'video/quicktime', video_codec: 'hevc' }), 'pad'));
    expect(preset).toMatchObject({ to: 'video/mp4', video: 'h264', audio: 'copy' });
    expect(converted<VideoPreset>(decidePreset(h264Only, video({ content_type: 'video/webm', video_codec: 'vp9', audio_codec: 'opus' }), 'pad'))).toMatchObject({
      to: 'video/mp4',
      video: 'h264',
      audio: 'aac',
    });
  });

  it('brings the frame rate into range and the size into bounds (even sides)', () => {
    expect(converted<VideoPreset>(decidePreset(reel, video({ fps: 120 }), 'pad'))).toMatchObject({ video: 'h264', fps: 60 });
    expect(converted<VideoPreset>(decidePreset(reel, video({ width: 3841, height: 2161 }), 'pad'))).toMatchObject({ video: 'h264', width: 1920, height: 1080 });
  });

  it('the preset id is stable, shared by equal presets and differs between presets', () => {
    const a = converted<VideoPreset>(decidePreset(reel, video({ fps: 120 }), 'pad'));
    const b = converted<VideoPreset>(decidePreset(reel, video({ fps: 120 }), 'pad'));
    expect(presetId(a)).toBe(presetId(b));
    expect(presetId(a)).toMatch(/^[0-9a-f]{16}$/);
    // 100 fps and 120 fps both become 60: one variant.
    expect(presetId(converted<VideoPreset>(decidePreset(reel, video({ fps: 100 }), 'pad')))).toBe(presetId(a));
    expect(presetId(a)).not.toBe(presetId(converted<VideoPreset>(decidePreset(reel, video({ fps: 10 }), 'pad'))));
  });
});
