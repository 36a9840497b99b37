import { describe, expect, it } from 'vitest';
import { countCharacters, utf8ByteLength } from './count.js';

const FAMILY = '👨‍👩‍👧‍👦'; // 4 people joined by 3 ZWJs: 1 grapheme, 7 code points, 25 UTF-8 bytes

describe('countCharacters', () => {
  it('weights X text like twitter-text: a URL is 23, CJK and emoji are 2', () => {
    expect(countCharacters('twitter', 'https://example.com/a/very/long/path/that/goes/on?and=on')).toBe(23);
    expect(countCharacters('twitter', 'example.com')).toBe(23);
    expect(countCharacters('twitter', '日本語')).toBe(6);
    expect(countCharacters('twitter', '😀')).toBe(2);
    expect(countCharacters('twitter', FAMILY)).toBe(2);
    expect(countCharacters('twitter', 'abc')).toBe(3);
  });

  it('counts Bluesky in graphemes', () => {
    expect(countCharacters('bluesky', FAMILY)).toBe(1);
    expect(countCharacters('bluesky', 'e\u0301')).toBe(1); // e + combining acute
    expect(countCharacters('bluesky', 'abc')).toBe(3);
  });

  it('counts the other platforms in code points', () => {
    expect(countCharacters('threads', FAMILY)).toBe(7);
    expect(countCharacters('linkedin', '😀')).toBe(1); // one code point, two UTF-16 units
    expect(countCharacters('mastodon', 'https://example.com')).toBe(19);
  });
});

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes', () => {
    expect(utf8ByteLength('a')).toBe(1);
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('日')).toBe(3);
    expect(utf8ByteLength(FAMILY)).toBe(25);
  });
});
