import { CAPABILITIES } from '@spa/platforms';
import { describe, expect, it } from 'vitest';
import { LINKEDIN_UPLOAD_RULES, linkedInChecks } from './check-media.js';

const refusal = (f: () => void) => {
  try {
    f();
    return undefined;
  } catch (e) {
    const err = e as { code: string; details?: string[]; message: string };
    return { code: err.code, detail: err.details?.[0] ?? err.message };
  }
};

describe('LinkedIn upload checks', () => {
  it("use the capability table: LinkedIn's 5 MB JPEG/PNG/GIF images and 500 MB MP4 videos, nothing capped below it", () => {
    expect(LINKEDIN_UPLOAD_RULES.image).toMatchObject({ content_types: ['image/jpeg', 'image/png', 'image/gif'], max_bytes: 5_000_000 });
    expect(LINKEDIN_UPLOAD_RULES.video).toEqual(CAPABILITIES.linkedin.media!.video);
    expect(LINKEDIN_UPLOAD_RULES.video.max_bytes).toBe(500_000_000);
    expect(linkedInChecks.cap('video')).toEqual({ bytes: 500_000_000, what: 'LinkedIn videos' });
  });

  it('take what LinkedIn takes, as the bytes show it', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/gif']) {
      expect(refusal(() => linkedInChecks.declared('image', type))).toBeUndefined();
      expect(refusal(() => linkedInChecks.sniffed('image', type))).toBeUndefined();
    }
    expect(refusal(() => linkedInChecks.declared('video', 'video/mp4'))).toBeUndefined();
    expect(refusal(() => linkedInChecks.match('video/mp4', 'video/mp4'))).toBeUndefined();
  });

  it('refuse, naming the field, what LinkedIn does not take or what the bytes are not', () => {
    expect(refusal(() => linkedInChecks.declared('image', 'image/webp'))).toMatchObject({ code: 'INVALID_PARAMETERS', detail: expect.stringMatching(/^content_type: 'image\/webp' is not accepted/) });
    expect(refusal(() => linkedInChecks.match('image/jpeg', 'image/png'))).toEqual({ code: 'INVALID_PARAMETERS', detail: "content_type: 'image/jpeg' was declared but the bytes are image/png" });
    expect(refusal(() => linkedInChecks.sniffed('image', undefined))).toMatchObject({ detail: expect.stringMatching(/^media: the bytes are of no recognised media format/) });
    expect(refusal(() => linkedInChecks.sniffed('video', 'image/png'))).toMatchObject({ detail: 'media: the bytes are image/png; a LinkedIn video must be video/mp4' });
    expect(refusal(() => linkedInChecks.sniffed('video', 'video/quicktime'))).toMatchObject({ detail: 'media: the bytes are video/quicktime; a LinkedIn video must be video/mp4' });
  });
});
