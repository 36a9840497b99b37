import { describe, expect, it } from 'vitest';
import { learnVoiceProfile, neutralVoiceProfile } from './voice-profile.js';

describe('voice profile', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');

  it('is neutral without posts', () => {
    expect(learnVoiceProfile([], now)).toEqual(neutralVoiceProfile(now));
    expect(learnVoiceProfile(['  '], now).sampleSize).toBe(0);
  });

  it('learns length, lines, emoji, hashtags, phrases, questions and tone', () => {
    const p = learnVoiceProfile(
      [
        'How to ship faster:\n- cut scope\n- ship daily\n#devtips 🚀',
        'How to hire well? Step one: write the job down. #hiring #devtips',
        'A lesson on code review: review small changes. #devtips',
        'Tip: ship daily and cut scope early!',
      ],
      now,
    );
    expect(p.sampleSize).toBe(4);
    expect(p.topHashtags).toEqual(['#devtips', '#hiring']);
    expect(p.hashtagsPerPost).toBe(1);
    expect(p.emojiPerPost).toBe(0.25);
    expect(p.questionRatio).toBe(0.25);
    expect(p.exclamationRatio).toBe(0.25);
    expect(p.listRatio).toBe(0.25);
    expect(p.averageLines).toBe(1.75);
    expect(p.frequentPhrases).toEqual(expect.arrayContaining(['ship daily', 'cut scope']));
    expect(p.tone).toBe('educational');
    expect(p.medianLength).toBeGreaterThan(0);
  });
});
