import { scheduledFetch } from './model.js';
import type { AnalyticsDeps, PostedTarget } from './ports.js';
import { fetchTimes, type ScheduleOptions } from './schedule.js';

export interface TrackingOptions extends ScheduleOptions {
  /** Width of a dispatch slot: fetches are grouped by `floor(due / slotMs)`. */
  slotMs: number;
  /** A fetch due within this time is sent at once rather than left to the slot walk. */
  sendAheadMs: number;
}

/**
 * After a post reached a terminal state: every target the platform accepted (as the event named them,
 * or else as the posts service answers) is tracked, with the Dub links it was published with and its
 * fetch schedule. Idempotent (a track is inserted by id), so a repeated event changes nothing; a fetch
 * already due (a late event) is sent at once.
 */
export async function trackPostedTargets(deps: AnalyticsDeps, o: TrackingOptions, workspaceId: number, postId: number, known?: PostedTarget[]): Promise<number> {
  const targets = known ?? (await deps.posts.postedTargets(workspaceId, postId));
  // Each target's track carries its fetch schedule: one document per target (the inserts of events handled at once share one command).
  const tracks = await Promise.all(
    targets.map(async ({ shortened, ...t }) => {
      // Links are looked up only for a target published with them (or not known to be without: an older event).
      const dubLinkIds = deps.links && shortened !== false ? (await deps.links.store.linksOf(t.postAccountId)).map((l) => l.dubLinkId) : [];
      const schedule = fetchTimes(t.postAccountId, t.postedAt, o).map((f) => ({ ...f, slot: Math.floor(f.dueAt.getTime() / o.slotMs) }));
      const track = { ...t, workspaceId, postId, status: 'active' as const, ...(dubLinkIds.length ? { dubLinkIds } : {}), schedule };
      await deps.store.insertTrack(track);
      return track;
    }),
  );
  // Read the clock once the tracks are stored: the dispatcher may have walked past a fetch's slot while
  // the insert was on its way (a slow store), and only a fetch due before now can be in such a slot.
  const now = deps.clock.now().getTime();
  for (const track of tracks) {
    for (const f of track.schedule) if (f.dueAt.getTime() <= now + o.sendAheadMs) await deps.messaging.sendFetch(track, scheduledFetch(track.postAccountId, f));
  }
  return targets.length;
}
