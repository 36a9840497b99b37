import { describe, expect, it } from 'vitest';
import { CONTENT_TYPES, PLATFORMS, type ContentType } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import { PLATFORM_OPTION_FIELDS } from './options.js';
import { presentCapabilities } from './present.js';

const MEDIA_REQUIRED = ['instagram', 'pinterest', 'tiktok', 'youtube'];
const platformsWith = (type: ContentType) => PLATFORMS.filter((p) => CAPABILITIES[p].content_types.includes(type));

describe('CAPABILITIES (contract rules of GET /platforms, 2.12.0)', () => {
  it('has exactly one entry per platform, keyed by its own id', () => {
    expect(Object.keys(CAPABILITIES).sort()).toEqual([...PLATFORMS].sort());
    for (const p of PLATFORMS) expect(CAPABILITIES[p].platform).toBe(p);
  });

  it('lists document only for linkedin and poll only for twitter and linkedin', () => {
    expect(platformsWith('document')).toEqual(['linkedin']);
    expect(platformsWith('poll')).toEqual(['twitter', 'linkedin']);
  });

  it('marks exactly instagram, pinterest, tiktok and youtube as media-required, and they omit text', () => {
    expect(PLATFORMS.filter((p) => CAPABILITIES[p].media_required).sort()).toEqual([...MEDIA_REQUIRED].sort());
    expect(platformsWith('text').sort()).toEqual(PLATFORMS.filter((p) => !MEDIA_REQUIRED.includes(p)).sort());
  });

  it('only uses known content types, without duplicates', () => {
    for (const p of PLATFORMS) {
      const types = CAPABILITIES[p].content_types;
      expect(
        types.every((t) => CONTENT_TYPES.includes(t)),
        p,
      ).toBe(true);
      expect(new Set(types).size, p).toBe(types.length);
    }
  });

  it('keeps limits in step with content_types (max_images and media rules iff the kind is published; poll rules iff poll)', () => {
    for (const p of PLATFORMS) {
      const c = CAPABILITIES[p];
      const has = (type: ContentType) => c.content_types.includes(type);
      expect(c.max_images !== undefined, `${p} max_images`).toBe(has('image'));
      expect(c.media?.image !== undefined, `${p} media.image`).toBe(has('image'));
      expect(c.media?.video !== undefined, `${p} media.video`).toBe(has('video'));
      expect(c.media?.document !== undefined, `${p} media.document`).toBe(has('document'));
      expect(c.poll !== undefined, `${p} poll`).toBe(has('poll'));
    }
  });

  it('has the key limits from the platform facts', () => {
    const limits = Object.fromEntries(PLATFORMS.map((p) => [p, CAPABILITIES[p].character_limit]));
    expect(limits).toMatchObject({ twitter: 280, linkedin: 3000, threads: 500, bluesky: 300, mastodon: 500, telegram: 4096 });
    expect(CAPABILITIES.bluesky).toMatchObject({ counting: 'graphemes', byte_limit: 3000, max_images: 4 });
    expect(CAPABILITIES.twitter).toMatchObject({ counting: 'weighted', max_images: 4 });
    expect(CAPABILITIES.youtube.title_limit).toBe(100);
    expect(CAPABILITIES.pinterest.title_limit).toBe(100);
  });
});

describe('presentCapabilities', () => {
  const presented = presentCapabilities();

  it('returns every platform in PLATFORMS order', () => {
    expect(presented.map((c) => c.platform)).toEqual([...PLATFORMS]);
  });

  it('omits fields that do not apply instead of sending null or undefined', () => {
    const json = JSON.parse(JSON.stringify(presented)) as Record<string, unknown>[];
    const byPlatform = Object.fromEntries(json.map((c) => [c['platform'], c]));
    expect(Object.keys(byPlatform['youtube']!)).not.toContain('max_images');
    expect(Object.keys(byPlatform['google_business']!['media'] as object)).toEqual(['image']);
    expect(Object.keys(byPlatform['threads']!)).not.toContain('poll');
    expect(JSON.stringify(json)).not.toContain('null');
    for (const c of presented) {
      expect(Object.values(c).includes(undefined), c.platform).toBe(false);
    }
  });

  it('sends the table, with what the pipeline converts and the options each platform reads, and a mutated copy does not leak into the table', () => {
    for (const [i, p] of PLATFORMS.entries()) {
      const { media, options, ...rest } = presented[i]!;
      const { media: tableMedia, ...tableRest } = CAPABILITIES[p];
      expect(rest).toEqual(tableRest);
      expect(options).toEqual(PLATFORM_OPTION_FIELDS[p]);
      for (const kind of ['image', 'video', 'document'] as const) {
        if (!tableMedia?.[kind]) expect(media?.[kind]).toBeUndefined();
        else expect(media?.[kind]).toMatchObject(tableMedia[kind]);
      }
    }
    expect(presented.find((c) => c.platform === 'instagram')?.media?.image?.converted_from).toEqual(expect.arrayContaining(['image/png', 'image/webp']));
    presented[0]!.character_limit = 1;
    (presented[0]!.content_types as ContentType[]).push('document');
    expect(CAPABILITIES.twitter.character_limit).toBe(280);
    expect(CAPABILITIES.twitter.content_types).not.toContain('document');
  });
});
