import type { Leases } from './ports.js';

/**
 * Renews `owner`'s lease on `key` every third of `ttlMs` while a long step runs (an OCR read queued behind others, a
 * slow generation), so a live worker never loses its item to a takeover; a worker that dies stops renewing and its
 * lease expires. A renewal that fails is left to the next one (the work's checkpoints notice a lost lease). Returns
 * the function that stops renewing.
 */
export function keepLease(leases: Leases, key: string, owner: string, ttlMs: number): () => void {
  const timer = setInterval(() => void leases.acquire(key, owner, ttlMs).catch(() => undefined), Math.max(Math.floor(ttlMs / 3), 100));
  timer.unref();
  return () => clearInterval(timer);
}
