import { describe, expect, it } from 'vitest';
import { FairQueue, type Queued } from './fair-queue.js';

const at = (s: number) => new Date(Date.UTC(2026, 4, 2, 10, 0, s));
const item = (id: string, platform: string, workspaceId: number, dueS = 0): Queued => ({ id, platform, workspaceId, dueAt: at(dueS) });

describe('the retry lane serves platforms and workspaces in turn', () => {
  it("a platform's backlog of thousands delays another platform's item by at most one round", () => {
    const q = new FairQueue<Queued>();
    for (let i = 0; i < 5_000; i++) q.add(item(`b${i}`, 'bluesky', 1));
    q.add(item('x', 'twitter', 1, 30));
    expect(q.take(2, at(60)).map((r) => r.id)).toEqual(['b0', 'x']);
    expect(q.size).toBe(4_999);
  });

  it("within a platform, a workspace's backlog delays another workspace's item by at most one round", () => {
    const q = new FairQueue<Queued>();
    for (let i = 0; i < 1_000; i++) q.add(item(`a${i}`, 'mastodon', 7));
    q.add(item('b', 'mastodon', 9, 5));
    q.add(item('c', 'mastodon', 3, 9));
    expect(q.take(3, at(60)).map((r) => r.id)).toEqual(['c', 'a0', 'b']);
    // The next round goes on in turn, starting after the workspace served last.
    expect(q.take(2, at(60)).map((r) => r.id)).toEqual(['a1', 'a2']);
  });

  it('takes nothing before it is due, the earliest due first in a lane, and an id once', () => {
    const q = new FairQueue<Queued>();
    expect(q.add(item('late', 'twitter', 1, 20))).toBe(true);
    expect(q.add(item('early', 'twitter', 1, 10))).toBe(true);
    expect(q.add(item('early', 'twitter', 1, 10))).toBe(false);
    expect(q.take(5, at(5))).toEqual([]);
    expect(q.take(5, at(15)).map((r) => r.id)).toEqual(['early']);
    expect(q.take(5, at(25)).map((r) => r.id)).toEqual(['late']);
    expect(q.size).toBe(0);
    expect(q.has('late')).toBe(false);
  });

  it('rotates platforms round by round while each has something due', () => {
    const q = new FairQueue<Queued>();
    for (const p of ['a', 'b', 'c']) for (let i = 0; i < 3; i++) q.add(item(`${p}${i}`, p, 1));
    expect(q.take(4, at(0)).map((r) => r.id)).toEqual(['a0', 'b0', 'c0', 'a1']);
    expect(q.take(4, at(0)).map((r) => r.id)).toEqual(['b1', 'c1', 'a2', 'b2']);
    expect(q.take(4, at(0)).map((r) => r.id)).toEqual(['c2']);
  });
});
