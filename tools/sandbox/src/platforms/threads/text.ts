const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** A post's length as Threads counts it: characters (code points), each emoji as its UTF-8 byte length. */
export function threadsLength(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) length += EMOJI.test(segment) ? Buffer.byteLength(segment) : [...segment].length;
  return length;
}

/** The distinct URLs of a text, as Threads counts links. */
export const linksOf = (text: string): Set<string> => new Set(text.match(/(?:https?:\/\/|www\.)[^\s<>"]+/gi) ?? []);
