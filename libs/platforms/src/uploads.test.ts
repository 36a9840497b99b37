import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from './capabilities.js';
import { maxUploadBytes, ruleAccepts, UPLOAD_PLATFORMS, uploadRules } from './uploads.js';

describe('upload rules', () => {
  it('come from the capability table, images only on facebook, pinterest and threads', () => {
    for (const p of UPLOAD_PLATFORMS) {
      const rules = uploadRules(p);
      expect(rules.image).toEqual(CAPABILITIES[p].media?.image);
      if (['facebook', 'pinterest', 'threads'].includes(p)) expect(rules.video).toBeUndefined();
      else expect(rules.video).toEqual(CAPABILITIES[p].media?.video);
    }
    expect(maxUploadBytes('facebook')).toBe(CAPABILITIES.facebook.media!.image!.max_bytes);
    expect(maxUploadBytes('instagram')).toBe(CAPABILITIES.instagram.media!.video!.max_bytes);
  });

  it('match MIME types, wildcards included', () => {
    expect(ruleAccepts({ content_types: ['image/*'], max_bytes: 1 }, 'image/webp')).toBe(true);
    expect(ruleAccepts({ content_types: ['image/*'], max_bytes: 1 }, 'video/mp4')).toBe(false);
    expect(ruleAccepts({ content_types: ['image/jpeg'], max_bytes: 1 }, 'image/png')).toBe(false);
  });
});
