import { describe, expect, it } from 'vitest';
import type { ListPostsQuery } from '../domain/ports.js';
import { decodeEntry, encodeEntry, mergeEntry, selectPage, tombstone, type ListEntry } from './list-entries.js';

const entry = (id: number, over: Partial<ListEntry> = {}): ListEntry => ({
  id,
  version: 1,
  status: 'scheduled',
  source: 'api',
  platforms: ['mastodon'],
  scheduledAt: null,
  createdAt: 1_000,
  postedAt: null,
  ...over,
});
const q = (over: Partial<ListPostsQuery> = {}): ListPostsQuery => ({
  workspaceId: 1,
  statuses: ['scheduled', 'draft'],
  sort: 'scheduled_at',
  sortDirection: 'asc',
  limit: 20,
  offset: 0,
  ...over,
});

describe('list entries', () => {
  it('sorts a missing date lowest, ties by id in the same direction', () => {
    const entries = [entry(3, { scheduledAt: 50 }), entry(1), entry(2, { scheduledAt: 50 }), entry(4)];
    expect(selectPage(entries, q()).ids).toEqual([1, 4, 2, 3]);
    expect(selectPage(entries, q({ sortDirection: 'desc' })).ids).toEqual([3, 2, 4, 1]);
  });

  it('takes the first page of a large set exactly as a full sort would, at every offset', () => {
    const entries = Array.from({ length: 5_000 }, (_, i) => entry(i + 1, { scheduledAt: (i * 7919) % 613, status: i % 3 ? 'scheduled' : 'draft' }));
    for (const offset of [0, 7, 180]) {
      for (const sortDirection of ['asc', 'desc'] as const) {
        const full = [...entries].sort((a, b) => (sortDirection === 'asc' ? 1 : -1) * (a.scheduledAt! - b.scheduledAt! || a.id - b.id));
        expect(selectPage(entries, q({ offset, sortDirection, limit: 20 })).ids).toEqual(full.slice(offset, offset + 20).map((e) => e.id));
      }
    }
  });

  it('counts per status over every filter but the status, and leaves tombstones out', () => {
    const entries = [entry(1), entry(2, { status: 'posted' }), entry(3, { source: 'ui' }), tombstone(4, new Date(5)), entry(5, { platforms: ['bluesky'] })];
    const page = selectPage(entries, q({ source: 'api', platform: 'mastodon' }));
    expect(page).toEqual({ ids: [1], totalCount: 1, counts: { scheduled: 1, posted: 1 } });
  });

  it('keeps the newest version of a post, a tombstone winning a tie, and survives its encoding', () => {
    const into = new Map<number, ListEntry>();
    mergeEntry(into, entry(1, { version: 5, status: 'draft' }));
    mergeEntry(into, entry(1, { version: 3, status: 'failed' }));
    expect(into.get(1)!.status).toBe('draft');
    mergeEntry(into, tombstone(1, new Date(5)));
    expect(into.get(1)!.gone).toBe(true);
    mergeEntry(into, entry(1, { version: 5 }));
    expect(into.get(1)!.gone).toBe(true);
    const live = entry(9, { platforms: ['bluesky', 'twitter'], scheduledAt: 7, postedAt: 8 });
    expect(decodeEntry(encodeEntry(live))).toEqual(live);
    expect(decodeEntry(encodeEntry(tombstone(9, new Date(4))))).toEqual(tombstone(9, new Date(4)));
  });
});
