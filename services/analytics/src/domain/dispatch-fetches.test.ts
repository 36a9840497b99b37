import { describe, expect, it } from 'vitest';
import { dispatchDueFetches } from './dispatch-fetches.js';
import { scheduledFetch, type FetchSlot, type ScheduledFetch, type Track } from './model.js';
import type { AnalyticsDeps } from './ports.js';

const SLOT = 500;

/** The walk over an in-memory schedule: only the store calls the walk makes. */
function walker(startMs: number) {
  let now = startMs;
  let cursor: number | undefined;
  const schedule: FetchSlot[] = [];
  const sent: string[] = [];
  const track: Track = { postAccountId: 7, workspaceId: 1, postId: 1, socialAccountId: 3, platform: 'twitter', platformPostId: 'p', postedAt: new Date(startMs), status: 'active', schedule };
  const deps = {
    clock: { now: () => new Date(now) },
    store: {
      dispatchCursor: async () => cursor,
      setDispatchCursor: async (slot: number) => void (cursor = slot),
      fetchesInSlot: async (slot: number) => schedule.filter((f) => f.slot === slot).map((f) => ({ track, fetch: scheduledFetch(7, f) })),
    },
    messaging: { sendFetch: async (_t: Track, f: ScheduledFetch) => void sent.push(f.id) },
  } as unknown as AnalyticsDeps;
  return {
    deps,
    sent,
    schedule: (n: number, dueMs: number) => schedule.push({ n, dueAt: new Date(dueMs), slot: Math.floor(dueMs / SLOT) }),
    advance: (ms: number) => void (now += ms),
    cursor: () => cursor,
  };
}

describe('dispatching due fetches', () => {
  it('starts walking on its first tick (no cursor stored yet) and sends each fetch once its slot ended', async () => {
    const w = walker(1_000_000);
    w.schedule(1, 1_000_000 + 2_000);
    w.schedule(2, 1_000_000 + 6_000);
    await dispatchDueFetches(w.deps, SLOT);
    expect(w.cursor()).toBeDefined();
    for (let t = 0; t < 7_000; t += 250) {
      w.advance(250);
      await dispatchDueFetches(w.deps, SLOT);
    }
    expect(w.sent).toEqual(['7:1', '7:2']);
  });
});
