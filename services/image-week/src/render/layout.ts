/** Text layout of a quote card: greedy word wrap at a measured width, trying font sizes from large to small. */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Width in pixels of `text` set at `size` pixels. */
export type Measure = (text: string, size: number) => number;

export interface TextLayout {
  size: number;
  lineHeight: number;
  lines: { text: string; width: number }[];
  /** Height of the block: lines × lineHeight. */
  height: number;
}

export const LINE_HEIGHT = 1.3;

/** Splits a word wider than the box into pieces that fit, so nothing ever leaves the safe area. */
function splitLongWord(word: string, size: number, width: number, measure: Measure): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const ch of word) {
    if (piece && measure(piece + ch, size) > width) {
      pieces.push(piece);
      piece = ch;
    } else piece += ch;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Lines of `text` no wider than `width` at `size` (greedy; a word too wide alone is split). */
export function wrap(text: string, size: number, width: number, measure: Measure): { text: string; width: number }[] {
  const words = text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => (measure(w, size) > width ? splitLongWord(w, size, width, measure) : [w]));
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measure(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines.map((l) => ({ text: l, width: measure(l, size) }));
}

/**
 * The largest of `sizes` (tried in the given order) at which `text` wraps into the box: every line no wider than
 * the box and the block no taller. `maxLines` keeps large sizes from producing a column of single words.
 * Undefined when even the last size does not fit.
 */
export function layoutText(text: string, box: Box, sizes: readonly number[], measure: Measure, maxLines = 9): TextLayout | undefined {
  for (const size of sizes) {
    const lines = wrap(text, size, box.width, measure);
    const lineHeight = Math.round(size * LINE_HEIGHT);
    const height = lines.length * lineHeight;
    if (lines.length <= maxLines && height <= box.height && lines.every((l) => l.width <= box.width)) return { size, lineHeight, lines, height };
  }
  return undefined;
}
