import type { AnalyticsDeps } from './ports.js';

/** Fetch jobs of one slot published at once (each a JetStream publish awaiting its store acknowledgement). */
const SENDS_AT_ONCE = 64;

/**
 * Sends the fetches of every slot that ended since the cursor, slot by slot (an equality query on the
 * slot each, which finds the tracks with a fetch in it, so nothing scans or sorts the whole schedule),
 * then moves the cursor. Fetches of a target that is no longer active are skipped. Replicas may walk the same slot: a job is named by its
 * fetch id (JetStream drops the repeat) and a snapshot is stored once by id, so nothing doubles.
 * Answers how many fetches were sent.
 */
export async function dispatchDueFetches(deps: AnalyticsDeps, slotMs: number, maxSlots = 10_000): Promise<number> {
  // Only slots that have ended: a fetch scheduled later into the current slot is not missed.
  const lastEnded = Math.floor(deps.clock.now().getTime() / slotMs) - 1;
  // The first walk (no cursor stored yet) starts with the slot that just ended, and stores the cursor:
  // starting past it would walk nothing, store nothing, and so never move on.
  const cursor = (await deps.store.dispatchCursor()) ?? lastEnded - 1;
  let sent = 0;
  for (let slot = cursor + 1; slot <= Math.min(lastEnded, cursor + maxSlots); slot += 1) {
    const due = (await deps.store.fetchesInSlot(slot)).filter(({ track, fetch }) => track.status === 'active' && !(track.last && track.last.n >= fetch.n));
    // Sent SENDS_AT_ONCE at a time: a slot of thousands (a wave of posts) is out in a second, not one publish round trip after another.
    for (let i = 0; i < due.length; i += SENDS_AT_ONCE) await Promise.all(due.slice(i, i + SENDS_AT_ONCE).map(({ track, fetch }) => deps.messaging.sendFetch(track, fetch)));
    sent += due.length;
    await deps.store.setDispatchCursor(slot);
  }
  return sent;
}
