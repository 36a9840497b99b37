/**
 * Text lengths as the platforms' own servers measure them. The stand-ins count on their own rather than
 * through `@spa/platforms` (whose counting the publisher's preflight uses): a stand-in that shared the code
 * under test could never catch its mistakes.
 */
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** User-perceived characters (extended grapheme clusters), as Bluesky and Mastodon count a post's text. */
export function graphemeLength(text: string): number {
  return [...graphemes.segment(text)].length;
}
