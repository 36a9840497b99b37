import { describe, expect, it } from 'vitest';
import { findUrls, replaceUrls } from './link-text.js';

describe('links in a target’s texts', () => {
  it('finds each distinct http(s) URL once, in order, without the punctuation that follows it', () => {
    const texts = ['Read https://example.com/a?b=1. Then (https://example.org/x) and https://example.com/a?b=1!', 'Part two: http://example.net/p, done'];
    expect(findUrls(texts)).toEqual(['https://example.com/a?b=1', 'https://example.org/x', 'http://example.net/p']);
    expect(findUrls(['no links here, only example.com and ftp://x.y'])).toEqual([]);
  });

  it('replaces every occurrence of each URL and keeps the rest of the text byte for byte', () => {
    const texts = ['Read https://example.com/a?b=1. Then (https://example.org/x) and https://example.com/a?b=1!'];
    const out = replaceUrls(
      texts,
      new Map([
        ['https://example.com/a?b=1', 'https://dub.sh/abc'],
        ['https://example.org/x', 'https://dub.sh/def'],
      ]),
    );
    expect(out).toEqual(['Read https://dub.sh/abc. Then (https://dub.sh/def) and https://dub.sh/abc!']);
    expect(replaceUrls(['https://example.com/keep'], new Map())).toEqual(['https://example.com/keep']);
  });
});
