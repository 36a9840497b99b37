import { createLogger } from '@spa/logger';
import { describe, expect, it } from 'vitest';
import { RetryLane, type MetricRetryStore, type PendingRetry } from './retry-lane.js';

/** The lane's store in memory, counting its reads: what the lane asks of it is the point here. */
class MemoryRetries implements MetricRetryStore {
  readonly docs = new Map<string, PendingRetry>();
  readonly reads: Array<'all' | number[]> = [];
  async add(r: PendingRetry) {
    if (!this.docs.has(r.id)) this.docs.set(r.id, r);
  }
  async dueInSeconds(seconds: number[]) {
    this.reads.push(seconds);
    return [...this.docs.values()].filter((r) => seconds.includes(Math.floor(r.dueAt.getTime() / 1000)));
  }
  async all() {
    this.reads.push('all');
    return [...this.docs.values()];
  }
  async remove(ids: string[]) {
    for (const id of ids) this.docs.delete(id);
  }
}

const T0 = Date.UTC(2026, 4, 2, 10, 0, 0);
const retry = (id: string, platform: string, workspaceId: number, dueMs: number): PendingRetry => ({ id, platform, workspaceId, dueAt: new Date(dueMs), job: Buffer.from(id) });

function lane(perSecond: number, send: (r: PendingRetry) => Promise<void> = async () => undefined) {
  const clock = { t: T0, now: () => new Date(clock.t) };
  const store = new MemoryRetries();
  const sent: string[] = [];
  const l = new RetryLane(
    store,
    async (r) => {
      await send(r);
      sent.push(r.id);
    },
    clock,
    createLogger('retry-lane-test', 'silent'),
    { perSecond, intervalMs: 250 },
  );
  return { lane: l, store, clock, sent };
}

describe('metric retry lane', () => {
  it('sends due retries at most `perSecond`, in turn per platform, and forgets what it sent', async () => {
    const { lane: l, store, clock, sent } = lane(4);
    for (let i = 0; i < 100; i++) await l.defer(retry(`bsky${i}`, 'bluesky', 1, T0 - 1_000));
    await l.defer(retry('x', 'twitter', 2, T0 - 500));
    await l.defer(retry('later', 'twitter', 2, T0 + 10_000));
    expect(await l.pass()).toBe(4);
    expect(sent).toEqual(['bsky0', 'x', 'bsky1', 'bsky2']);
    expect(store.docs.has('x')).toBe(false);
    // A quarter of a second later: one more, not a burst.
    clock.t += 250;
    expect(await l.pass()).toBe(1);
    // A quiet minute does not save up more than a second's worth.
    clock.t += 60_000;
    expect(await l.pass()).toBe(4);
    expect(sent).toContain('later');
  });

  it('reads the whole lane once, then only the seconds that came due (and a few before), by equality', async () => {
    const { lane: l, store, clock, sent } = lane(10);
    await l.pass();
    expect(store.reads).toEqual(['all']);
    clock.t += 1_000;
    // Recorded by another publisher, due now.
    await store.add(retry('other', 'mastodon', 3, clock.t));
    await l.pass();
    const second = Math.floor(clock.t / 1000);
    expect(store.reads[1]).toEqual([second - 6, second - 5, second - 4, second - 3, second - 2, second - 1, second]);
    expect(sent).toEqual(['other']);
  });

  it('keeps a retry it could not send, and sends it on a later pass', async () => {
    let down = true;
    const {
      lane: l,
      store,
      clock,
      sent,
    } = lane(10, async () => {
      if (down) throw new Error('NATS unavailable');
    });
    await l.defer(retry('r', 'threads', 1, T0));
    expect(await l.pass()).toBe(0);
    expect(store.docs.has('r')).toBe(true);
    down = false;
    clock.t += 1_000;
    expect(await l.pass()).toBe(1);
    expect(sent).toEqual(['r']);
    expect(store.docs.size).toBe(0);
  });
});
