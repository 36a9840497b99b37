import { PLATFORMS } from '@spa/vocabulary';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from './capabilities.js';
import { defaultStyle, styleLengthLimit, styleProblems } from './styles.js';

describe('platform styles', () => {
  it('gives every platform a default within its own limits and the style bounds', () => {
    for (const platform of PLATFORMS) {
      const style = defaultStyle(platform);
      expect(style.lengthTarget).toBeLessThanOrEqual(CAPABILITIES[platform].character_limit);
      expect(styleProblems(platform, style), platform).toEqual([]);
    }
    expect(styleLengthLimit('telegram')).toBe(1024);
    expect(defaultStyle('twitter').lengthTarget).toBe(252);
  });

  it('names every bad field, bounding length_target by the platform', () => {
    expect(styleProblems('twitter', { lengthTarget: 281, hashtagCount: 31, emoji: 'lots' as never, callToActionText: ' ' })).toEqual([
      'length_target: must be an integer from 1 to 280 on twitter (got 281)',
      'hashtag_count: must be an integer from 0 to 30 on twitter (got 31)',
      'emoji: must be one of none, few, many (got "lots")',
      'call_to_action_text: must be 1 to 200 characters, or null (got 1)',
    ]);
    expect(styleProblems('linkedin', { lengthTarget: 3000, callToActionText: null })).toEqual([]);
  });
});
