import { settled } from './manage-media.js';
import type { MediaDeps } from './ports.js';

/**
 * How long after its URL expired a presigned reservation is kept: an upload that started just
 * before the expiry may still be arriving (a 1 GB video over a slow link).
 */
export const PRESIGN_GRACE_MS = 24 * 3600_000;

/**
 * Settles presigned reservations whose URL expired more than the grace ago: one whose object
 * arrived whole (an S3 upload nobody asked about since) becomes `stored`, as a read would make it;
 * any other is removed with its claim and whatever object it left. Safe to run in every replica at once (each step
 * is idempotent). Returns how many reservations were removed.
 */
export async function sweepExpiredUploads(deps: MediaDeps, batch = 100): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - PRESIGN_GRACE_MS);
  let removed = 0;
  for (;;) {
    const expired = await deps.store.expiredPending(before, batch);
    for (const record of expired) {
      if (await settled(deps, record)) continue;
      await deps.storage.delete(record.key);
      await deps.store.delete(record.key);
      removed += 1;
    }
    if (expired.length < batch) return removed;
  }
}
