import { AppError } from '@spa/errors';
import type { QuotesPort } from './ports.js';
import { quoteFromPost, quoteKey } from './quote-text.js';

/** Largest batch asked of the generation service at once (its generate_batch bound). */
const BATCH = 20;
/** Extra rounds asked when some texts gave no quote or repeated one. */
const EXTRA_ROUNDS = 2;

/**
 * Up to `count` distinct quotes on `topic` in the workspace's voice, each taken from one generation (so each counts
 * against the daily generation quota). None equals (normalised) another of the run or one of `avoid`. Stops early,
 * with `quotaHit`, when the daily generation quota runs out.
 */
export async function writeQuotes(quotes: QuotesPort, workspaceId: number, topic: string, count: number, avoid: readonly string[] = []): Promise<{ quotes: string[]; quotaHit: boolean }> {
  const seen = new Set(avoid.map(quoteKey));
  const out: string[] = [];
  let quotaHit = false;
  for (let round = 0; round <= EXTRA_ROUNDS && out.length < count && !quotaHit; round++) {
    let missing = count - out.length;
    while (missing > 0) {
      const ask = Math.min(BATCH, missing);
      let texts: string[];
      try {
        texts = await quotes.write(workspaceId, topic, ask);
      } catch (err) {
        if (err instanceof AppError && err.code === 'DAILY_LIMIT_EXCEEDED') {
          quotaHit = true;
          break;
        }
        throw err;
      }
      for (const text of texts) {
        const quote = quoteFromPost(text);
        if (!quote || seen.has(quoteKey(quote)) || out.length >= count) continue;
        seen.add(quoteKey(quote));
        out.push(quote);
      }
      missing -= ask;
    }
  }
  return { quotes: out, quotaHit };
}
