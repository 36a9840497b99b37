import { describe, expect, it } from 'vitest';
import { QUOTE_MAX, quoteFromPost, quoteKey } from './quote-text.js';

describe('card quotes from generated posts', () => {
  it('drops links, hashtags, mentions, emoji and list markers', () => {
    expect(quoteFromPost('🚀 Ship small, ship often. https://x.co/a #focus @team')).toBe('Ship small, ship often.');
    expect(quoteFromPost('- Measure what changes.\n- Keep a baseline.')).toBe('Measure what changes. Keep a baseline.');
  });

  it('keeps whole sentences up to the limit, and cuts a long first sentence at a word', () => {
    const long = `${'Deep work grows when you protect the first hours of the day from meetings and messages, '.repeat(3)}and then you ship.`;
    const q = quoteFromPost(long)!;
    expect([...q].length).toBeLessThanOrEqual(QUOTE_MAX);
    expect(long.startsWith(q)).toBe(true);
    const two = quoteFromPost('First sentence here. Second one follows! ' + 'x'.repeat(200))!;
    expect(two).toBe('First sentence here. Second one follows!');
  });

  it('gives nothing for text with nothing quotable, and one key for the same words', () => {
    expect(quoteFromPost('#a #b https://x.y 🎉')).toBeUndefined();
    expect(quoteKey('“Focus,” she said.')).toBe(quoteKey('focus she said'));
  });
});
