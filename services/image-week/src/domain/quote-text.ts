import { normalizeText } from '../verify/compare.js';

/** Longest quote put on a card (characters); longer texts are cut at a sentence or word boundary. */
export const QUOTE_MAX = 180;
const QUOTE_MIN = 12;

/**
 * A card quote from a generated post: links, hashtags, mentions, emoji and list markers removed, then whole
 * sentences up to QUOTE_MAX characters (a first sentence longer than that is cut at a word boundary).
 * Undefined when nothing quotable is left.
 */
export function quoteFromPost(body: string): string | undefined {
  const text = body
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(^|\s)[#@][\p{L}\p{N}_]+/gu, ' ')
    .replace(/\p{Extended_Pictographic}|\uFE0F|\u200D/gu, ' ')
    .replace(/^\s*([-•*]|\d+[.)])\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  const sentences =
    text
      .match(/[^.!?]+[.!?]+["”’)]*|[^.!?]+$/g)
      ?.map((s) => s.trim())
      .filter(Boolean) ?? [];
  let quote = '';
  for (const s of sentences) {
    const next = quote ? `${quote} ${s}` : s;
    if ([...next].length > QUOTE_MAX) break;
    quote = next;
  }
  if (!quote && sentences[0]) {
    const words = sentences[0].split(' ');
    for (const w of words) {
      const next = quote ? `${quote} ${w}` : w;
      if ([...next].length > QUOTE_MAX) break;
      quote = next;
    }
    quote = quote.replace(/[,;:–—-]+$/, '');
  }
  quote = quote.trim();
  return [...quote].length >= QUOTE_MIN && normalizeText(quote).length > 0 ? quote : undefined;
}

/** Key under which two quotes count as the same. */
export const quoteKey = (quote: string): string => normalizeText(quote);
