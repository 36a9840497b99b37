import { describe, expect, it } from 'vitest';
import { dispatchDueFetches } from './dispatch-fetches.js';
import { scheduledFetch, type ScheduledFetch, type Track } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { trackPostedTargets } from './track-posted.js';

const SLOT = 500;
const POSTED = 1_000_000;

/**
 * A slow store: the track's insert takes `insertMs` of the clock, while the dispatcher walks the slots
 * that end meanwhile (it cannot see a fetch before the insert lands).
 */
function slowStore(insertMs: number) {
  let now = POSTED + 100;
  let cursor: number | undefined;
  const sent = new Set<string>();
  const tracks: Track[] = [];
  const deps = {
    clock: { now: () => new Date(now) },
    links: undefined,
    posts: { postedTargets: async () => [] },
    store: {
      insertTrack: async (t: Track) => {
        // The dispatcher ticks every 250 ms while the insert is on its way.
        for (let i = 0; i < insertMs; i += 250) {
          now += 250;
          await dispatchDueFetches(deps, SLOT);
        }
        tracks.push(t);
        return true;
      },
      dispatchCursor: async () => cursor,
      setDispatchCursor: async (slot: number) => void (cursor = slot),
      fetchesInSlot: async (slot: number) => tracks.flatMap((track) => (track.schedule ?? []).filter((f) => f.slot === slot).map((f) => ({ track, fetch: scheduledFetch(track.postAccountId, f) }))),
    },
    messaging: { sendFetch: async (_t: Track, f: ScheduledFetch) => void sent.add(f.id) },
  } as unknown as AnalyticsDeps;
  return {
    deps,
    sent,
    /** The dispatcher's ticks after the insert, until `untilMs` after posting. */
    async tickUntil(untilMs: number) {
      while (now < POSTED + untilMs) {
        now += 250;
        await dispatchDueFetches(deps, SLOT);
      }
    },
  };
}

const target = { postAccountId: 7, socialAccountId: 3, platform: 'twitter' as const, platformPostId: 'p', postedAt: new Date(POSTED) };
const options = { offsetsMs: [2_000, 6_000], jitterFraction: 0, maxJitterMs: 0, slotMs: SLOT, sendAheadMs: 500 };

describe('tracking a posted target', () => {
  it('sends every fetch once due, even one whose slot the dispatcher walked past while the slow insert was on its way', async () => {
    const s = slowStore(3_000);
    expect(await trackPostedTargets(s.deps, options, 1, 1, [target])).toBe(1);
    // Fetch 1 (due 2 s after posting) came due during the 3 s insert: sent at once, not left to a passed slot.
    expect([...s.sent]).toEqual(['7:1']);
    await s.tickUntil(8_000);
    expect([...s.sent].sort()).toEqual(['7:1', '7:2']);
  });

  it('leaves a fetch not yet due to the dispatcher', async () => {
    const s = slowStore(0);
    await trackPostedTargets(s.deps, options, 1, 1, [target]);
    expect(s.sent.size).toBe(0);
    await s.tickUntil(8_000);
    expect([...s.sent].sort()).toEqual(['7:1', '7:2']);
  });
});

describe("a tracked target's short links", () => {
  function withLinks() {
    const looked: number[] = [];
    const tracks: Track[] = [];
    const deps = {
      clock: { now: () => new Date(POSTED) },
      links: {
        store: {
          linksOf: async (postAccountId: number) => {
            looked.push(postAccountId);
            return [{ postAccountId, workspaceId: 1, index: 0, originalUrl: 'https://example.com', shortUrl: 'https://dub.sh/x', dubLinkId: `link_${postAccountId}` }];
          },
        },
      },
      store: { insertTrack: async (t: Track) => void tracks.push(t) },
      messaging: { sendFetch: async () => undefined },
    } as unknown as AnalyticsDeps;
    return { deps, looked, tracks };
  }

  it('are looked up for a target published with them, or not known to be without; never for one published without', async () => {
    const s = withLinks();
    const targets = [
      { ...target, postAccountId: 1, shortened: true },
      { ...target, postAccountId: 2, shortened: false },
      { ...target, postAccountId: 3 }, // an event from before the field: not known
    ];
    expect(await trackPostedTargets(s.deps, options, 1, 1, targets)).toBe(3);
    expect(s.looked.sort()).toEqual([1, 3]);
    const linkIds = Object.fromEntries(s.tracks.map((t) => [t.postAccountId, t.dubLinkIds]));
    // Each track carries its schedule: one fetch per offset, each in its slot.
    expect(s.tracks[0]?.schedule).toEqual([
      { n: 1, dueAt: new Date(POSTED + 2_000), slot: Math.floor((POSTED + 2_000) / SLOT) },
      { n: 2, dueAt: new Date(POSTED + 6_000), slot: Math.floor((POSTED + 6_000) / SLOT) },
    ]);
    expect(linkIds).toEqual({ 1: ['link_1'], 2: undefined, 3: ['link_3'] });
  });
});
