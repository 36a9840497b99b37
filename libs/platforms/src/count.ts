import twitterText from 'twitter-text';
import type { Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';

// twitter-text is CommonJS (`module.exports = {...}`): under NodeNext ESM only its default export
// (the whole module.exports object) exists, so named imports would fail at runtime.
const { parseTweet } = twitterText;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const utf8 = new TextEncoder();

/** Length of `text` as `platform` measures it (see `Counting`). */
export function countCharacters(platform: Platform, text: string): number {
  switch (CAPABILITIES[platform].counting) {
    case 'weighted':
      return parseTweet(text).weightedLength;
    case 'graphemes':
      return [...graphemes.segment(text)].length;
    case 'characters':
      return countCodePoints(text);
  }
}

/** Unicode code points (a surrogate pair counts once). */
export function countCodePoints(text: string): number {
  return [...text].length;
}

/** Size of `text` encoded as UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  return utf8.encode(text).length;
}
