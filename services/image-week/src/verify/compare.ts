import { distance } from 'fastest-levenshtein';

/**
 * The text comparison of the verify loop. Both sides are normalised (Unicode compatibility forms, accents and
 * case dropped, curly quotes and dashes to plain, everything but letters and digits to single spaces), the
 * watermark is taken out of the read-back, and the edit distance must stay within `tolerance` of the quote's length.
 */
export function normalizeText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface Comparison {
  ok: boolean;
  distance: number;
  /** 1 - distance / length of the normalised quote. */
  similarity: number;
}

export const DEFAULT_TOLERANCE = 0.08;

export function compareReadBack(quote: string, readBack: string, opts: { watermark?: string | undefined; tolerance?: number } = {}): Comparison {
  const expected = normalizeText(quote);
  let actual = normalizeText(readBack);
  const mark = opts.watermark ? normalizeText(opts.watermark) : '';
  if (mark) {
    const at = actual.lastIndexOf(mark);
    if (at >= 0) actual = `${actual.slice(0, at)} ${actual.slice(at + mark.length)}`.replace(/\s+/g, ' ').trim();
  }
  if (!expected) return { ok: false, distance: actual.length, similarity: 0 };
  const d = distance(expected, actual);
  const similarity = 1 - d / expected.length;
  return { ok: d <= Math.floor(expected.length * (opts.tolerance ?? DEFAULT_TOLERANCE)), distance: d, similarity };
}
