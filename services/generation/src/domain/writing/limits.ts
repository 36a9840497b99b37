import { CAPABILITIES, countCharacters, defaultStyle, utf8ByteLength } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';

/**
 * The hard length limit a generated text must keep on `platform`, counted the platform's way
 * (@spa/platforms `countCharacters`). Where the platform has a lower caption limit for posts with
 * media (Telegram 1024), that lower limit is used, so a generated post can always carry an image.
 */
export function hardLimit(platform: Platform): number {
  const caps = CAPABILITIES[platform];
  return Math.min(caps.character_limit, caps.caption_limit ?? Infinity);
}

/** Length a post aims for on a platform whose style was never changed (@spa/platforms `defaultStyle`). */
export function targetLength(platform: Platform): number {
  return Math.min(defaultStyle(platform).lengthTarget, hardLimit(platform));
}

/** Whether `text` fits `limit` on `platform` (and the platform's UTF-8 byte cap, e.g. Bluesky's 3000). */
export function fits(platform: Platform, text: string, limit = hardLimit(platform)): boolean {
  const byteLimit = CAPABILITIES[platform].byte_limit;
  return countCharacters(platform, text) <= limit && (byteLimit === undefined || utf8ByteLength(text) <= byteLimit);
}

export function lengthProblem(platform: Platform, text: string, limit = hardLimit(platform)): string | undefined {
  if (fits(platform, text, limit)) return undefined;
  return `is ${countCharacters(platform, text)} characters on ${platform}; the limit is ${limit}`;
}

/**
 * Shortens `text` to fit: drops whole paragraphs, then whole sentences, from the end of the middle,
 * keeping the first paragraph and a trailing hashtag line (`keepTail`), and as a last resort cuts at a
 * word boundary with an ellipsis. Returns the text unchanged when it already fits.
 */
export function fitToLimit(platform: Platform, text: string, limit = hardLimit(platform)): string {
  if (fits(platform, text, limit)) return text;
  const paragraphs = text.split(/\n{2,}/);
  const tail = paragraphs.length > 1 && /^(?:#[\p{L}\p{N}_]+\s*)+$/u.test(paragraphs.at(-1)!.trim()) ? paragraphs.pop()! : undefined;
  const join = (parts: string[]) => [...parts, ...(tail ? [tail] : [])].join('\n\n');
  while (paragraphs.length > 1 && !fits(platform, join(paragraphs), limit)) paragraphs.splice(paragraphs.length - 1, 1);
  let candidate = join(paragraphs);
  if (fits(platform, candidate, limit)) return candidate;
  const sentences = paragraphs[0]!.split(/(?<=[.!?])\s+/);
  while (sentences.length > 1 && !fits(platform, join([sentences.join(' ')]), limit)) sentences.pop();
  candidate = join([sentences.join(' ')]);
  if (fits(platform, candidate, limit)) return candidate;
  if (tail) {
    const room = limit - countCharacters(platform, `\n\n${tail}`);
    const head = room > limit / 2 ? cutAtWord(platform, sentences.join(' '), room) : '';
    if (head && fits(platform, join([head]), limit)) return join([head]);
  }
  return cutAtWord(platform, candidate, limit);
}

/** Cuts at the last whole word that fits, adding an ellipsis. */
export function cutAtWord(platform: Platform, text: string, limit: number): string {
  const words = text.split(/(\s+)/);
  let out = '';
  for (const piece of words) {
    if (!fits(platform, `${out}${piece}…`, limit)) break;
    out += piece;
  }
  out = out.trimEnd().replace(/[,;:\-–—]$/, '');
  return out ? `${out}…` : '';
}
