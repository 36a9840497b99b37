import { AppError } from '@spa/errors';
import type { QuoteLedger, QuotesPort, RecordedBatch } from './ports.js';
import { quoteFromPost, quoteKey } from './quote-text.js';

/** Largest batch asked of the generation service at once (its generate_batch bound). */
const BATCH = 20;
/** Extra rounds asked when some texts gave no quote or repeated one. */
const EXTRA_ROUNDS = 2;

/** Where the batches of one piece of work (`plan:<run>`, `item:<item>:r<round>`) are recorded. */
export interface QuoteJournal {
  ledger: QuoteLedger;
  scope: string;
}

/**
 * Up to `count` distinct quotes on `topic` in the workspace's voice, each taken from one generation (so each counts
 * against the daily generation quota). None equals (normalised) another of the run or one of `avoid`. Stops early,
 * with `quotaHit`, when the daily generation quota runs out.
 *
 * Each batch the generation service answers is recorded in the journal (batch n of the scope, a unique insert)
 * before anything else happens, and a batch already recorded is reused instead of asked again: a worker that takes
 * over after a crash gets the same quotes without being charged for them twice. Only a worker killed while the
 * generation call itself is running leaves its batch unrecorded, and that one batch is asked again, under the same
 * batch key (`image-week:<scope>:<n>`), so the generation service charges the daily quota for it once.
 */
export async function writeQuotes(
  quotes: QuotesPort,
  workspaceId: number,
  topic: string,
  count: number,
  journal: QuoteJournal,
  avoid: readonly string[] = [],
): Promise<{ quotes: string[]; quotaHit: boolean }> {
  const recorded = await journal.ledger.batches(journal.scope);
  const seen = new Set(avoid.map(quoteKey));
  const out: string[] = [];
  let quotaHit = false;
  let n = 0;
  for (let round = 0; round <= EXTRA_ROUNDS && out.length < count && !quotaHit; round++) {
    let missing = count - out.length;
    while (missing > 0) {
      const ask = Math.min(BATCH, missing);
      const batch = recorded.get(n) ?? (await journal.ledger.record(journal.scope, n, await askBatch(quotes, workspaceId, topic, ask, `image-week:${journal.scope}:${n}`)));
      n += 1;
      if (batch.quotaHit) {
        quotaHit = true;
        break;
      }
      for (const text of batch.texts) {
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

async function askBatch(quotes: QuotesPort, workspaceId: number, topic: string, count: number, batchKey: string): Promise<RecordedBatch> {
  try {
    return { texts: await quotes.write(workspaceId, topic, count, batchKey), quotaHit: false };
  } catch (err) {
    if (err instanceof AppError && err.code === 'DAILY_LIMIT_EXCEEDED') return { texts: [], quotaHit: true };
    throw err;
  }
}
