/**
 * Near-duplicate detection: word 3-shingles (lower-cased words, punctuation, emoji and URLs ignored,
 * hashtags kept as words) compared with Jaccard similarity. Two texts are near-duplicates when the
 * similarity is ≥ NEAR_DUPLICATE_THRESHOLD. Texts under three words compare their word sets.
 */
export const NEAR_DUPLICATE_THRESHOLD = 0.6;
const SHINGLE = 3;

export type Shingles = ReadonlySet<string>;

export function shingles(text: string): Shingles {
  const words =
    text
      .toLowerCase()
      .replace(/https?:\/\/\S+/g, ' ')
      .match(/[\p{L}\p{N}#'_]+/gu) ?? [];
  if (words.length < SHINGLE) return new Set(words);
  const out = new Set<string>();
  for (let i = 0; i + SHINGLE <= words.length; i++) out.add(words.slice(i, i + SHINGLE).join(' '));
  return out;
}

export function jaccard(a: Shingles, b: Shingles): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const s of small) if (large.has(s)) common++;
  return common / (a.size + b.size - common);
}

/** Remembers accepted and existing texts and answers whether a candidate is too close to any of them. */
export class DuplicateGuard {
  private readonly seen: Shingles[];

  constructor(existing: readonly string[] = []) {
    this.seen = existing.map(shingles);
  }

  isNearDuplicate(text: string): boolean {
    const candidate = shingles(text);
    return this.seen.some((other) => jaccard(candidate, other) >= NEAR_DUPLICATE_THRESHOLD);
  }

  remember(text: string): void {
    this.seen.push(shingles(text));
  }
}
