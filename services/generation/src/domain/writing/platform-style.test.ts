import { countCodePoints, defaultStyle, type PlatformStyle } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import { describe, expect, it } from 'vitest';
import { compose } from '../composer/composer.js';
import { neutralVoiceProfile } from '../voice/voice-profile.js';
import type { WritingBrief } from './brief.js';
import { hardLimit } from './limits.js';
import { promptFor } from './prompt.js';
import { EMPTY_RULES, parseRules } from './rules.js';

const EMOJI = /\p{Extended_Pictographic}/u;
const HASHTAG = /(?:^|\s)#[\p{L}\p{N}_]+/gu;

function brief(platform: Platform, style: Partial<PlatformStyle>, seed: number, over: Partial<WritingBrief> = {}): WritingBrief {
  const platformStyle = { ...defaultStyle(platform), ...style };
  return {
    kind: 'post',
    platform,
    topic: 'remote work for small teams',
    angle: undefined,
    style: { tone: 'professional', structure: 'auto', includeEmoji: true },
    platformStyle,
    voice: neutralVoiceProfile(new Date('2026-01-01T00:00:00Z')),
    rules: EMPTY_RULES,
    seed,
    limit: hardLimit(platform),
    targetLength: Math.min(platformStyle.lengthTarget, hardLimit(platform)),
    avoid: [],
    ...over,
  };
}

const body = (b: WritingBrief): string => {
  const w = compose(b);
  if (w.kind !== 'post') throw new Error('expected a post');
  return w.body;
};

describe('the built-in composer under a platform style', () => {
  it('writes no hashtags, no emoji, one block and the given call to action, within the length target', () => {
    const style = { hashtagCount: 0, emoji: 'none', lineBreaks: 'none', callToAction: true, callToActionText: 'Book a demo at example.com', lengthTarget: 400 } as const;
    for (let seed = 0; seed < 40; seed++) {
      const text = body(brief('linkedin', style, seed));
      expect(text.match(HASHTAG), text).toBeNull();
      expect(EMOJI.test(text), text).toBe(false);
      expect(text.includes('\n'), text).toBe(false);
      expect(text.endsWith('Book a demo at example.com'), text).toBe(true);
      expect(countCodePoints(text), text).toBeLessThanOrEqual(400);
    }
  });

  it('writes exactly the hashtag count on its last line, a sentence per line, and no call to action when the style has none', () => {
    const style = { hashtagCount: 2, lineBreaks: 'every_sentence', callToAction: false } as const;
    for (let seed = 0; seed < 40; seed++) {
      const b = brief('facebook', style, seed, { style: { tone: 'casual', structure: 'hook_body_cta', includeEmoji: false } });
      const text = body(b);
      const blocks = text.split('\n\n');
      expect(blocks.at(-1)!.match(HASHTAG)?.length, text).toBe(2);
      expect(text.match(HASHTAG)?.length, text).toBe(2);
      for (const block of blocks) expect(block.split(/(?<=[.!?])\s+(?=\S)/u).length, block).toBe(1);
      // The defaults of a facebook post always close with a call to action; this style drops it.
      const withCta = body({ ...b, platformStyle: { ...b.platformStyle!, callToAction: true, callToActionText: 'Tell us what you think.' } });
      expect(withCta.includes('Tell us what you think.')).toBe(true);
      expect(text.includes('Tell us what you think.')).toBe(false);
    }
  });

  it('puts many emoji in the post for `many`, none for `none`, and none when include_emoji is off whatever the style', () => {
    const count = (text: string) => [...text].filter((c) => EMOJI.test(c)).length;
    let many = 0;
    let few = 0;
    for (let seed = 0; seed < 30; seed++) {
      const hbc = { tone: 'professional', structure: 'hook_body_cta', includeEmoji: true };
      many += count(body(brief('instagram', { emoji: 'many' }, seed, { style: hbc })));
      few += count(body(brief('instagram', { emoji: 'few' }, seed, { style: hbc })));
      expect(count(body(brief('instagram', { emoji: 'none' }, seed, { style: hbc })))).toBe(0);
      expect(count(body(brief('instagram', { emoji: 'many' }, seed, { style: { ...hbc, includeEmoji: false } })))).toBe(0);
    }
    expect(few).toBeGreaterThanOrEqual(30);
    expect(many).toBeGreaterThan(2 * few);
  });

  it('keeps the style hashtags below a "max N hashtags" rule', () => {
    const text = body(brief('instagram', { hashtagCount: 8 }, 3, { rules: parseRules(['max 2 hashtags']) }));
    expect(text.match(HASHTAG)?.length ?? 0).toBeLessThanOrEqual(2);
  });

  it('closes a thread and a carousel with the style call to action text', () => {
    const thread = compose(brief('twitter', { callToAction: true, callToActionText: 'Join the waitlist.', hashtagCount: 0 }, 5, { kind: 'thread', parts: 4 }));
    if (thread.kind !== 'thread') throw new Error('expected a thread');
    expect(thread.parts.at(-1)).toContain('Join the waitlist.');
    expect(thread.parts.join(' ').match(HASHTAG)).toBeNull();
    const carousel = compose(brief('linkedin', { callToActionText: 'Follow for more.' }, 5, { kind: 'carousel', slides: 5, targetLength: 700 }));
    if (carousel.kind !== 'carousel') throw new Error('expected a carousel');
    expect(carousel.slides.at(-1)!.body).toBe('Follow for more.');
  });
});

describe('the prompt under a platform style', () => {
  it('states the length target, hashtag count, emoji, line breaks and call to action', () => {
    const b = brief('linkedin', { hashtagCount: 0, emoji: 'many', lineBreaks: 'none', callToAction: true, callToActionText: 'Book a demo at example.com', lengthTarget: 400 }, 1);
    const [system, user] = promptFor(b);
    expect(system!.content).toContain('House style for LinkedIn');
    expect(system!.content).toContain('aim for 400 characters');
    expect(system!.content).toContain('Hashtags: none');
    expect(system!.content).toContain('Use emoji generously');
    expect(system!.content).toContain('one block, without line breaks');
    expect(system!.content).toContain('"Book a demo at example.com"');
    expect(user!.content).toContain('at most 400 characters');
  });

  it('says exactly N hashtags, a line per sentence, no call to action, and no emoji when include_emoji is off', () => {
    const b = brief('instagram', { hashtagCount: 6, emoji: 'many', lineBreaks: 'every_sentence', callToAction: false }, 1, {
      style: { tone: 'casual', structure: 'auto', includeEmoji: false },
    });
    const system = promptFor(b)[0]!.content;
    expect(system).toContain('exactly 6');
    expect(system).toContain('every sentence on its own line');
    expect(system).toContain('Do not end with a call to action');
    expect(system).toContain('Do not use emoji');
    expect(system).not.toContain('generously');
  });

  it('names the image aspect of a carousel', () => {
    const b = brief('linkedin', { imageAspect: '4:5' }, 1, { kind: 'carousel', slides: 5, targetLength: 700 });
    expect(promptFor(b)[0]!.content).toContain('4:5');
  });
});
