import type { PostStatus } from '@spa/vocabulary';
import type { Post } from '../domain/model.js';
import type { ListPostsQuery } from '../domain/ports.js';

/**
 * One post as the list index knows it: the few fields a list filters, sorts and counts on, and its
 * version (the post's `updated_at`, or the deletion time for a tombstone). Of two entries of one post
 * the newer version wins, a tombstone winning a tie, so entries can be written in any order, repeated
 * or derived again from the post later without ever going back in time.
 */
export interface ListEntry {
  id: number;
  version: number;
  /** A tombstone: the post was deleted at `version`. */
  gone?: true;
  status: PostStatus;
  source: string;
  platforms: string[];
  scheduledAt: number | null;
  createdAt: number;
  postedAt: number | null;
}

/** An entry stored compactly: `[id, version]` for a tombstone, else every field in order (platforms comma-joined). */
export type EncodedEntry = [number, number] | [number, number, string, string, string, number | null, number, number | null];

/** The fields of a stored post an entry is derived from (a projection of the post document). */
export interface EntrySource {
  _id: number;
  workspace_id: number;
  status: string;
  source: string;
  scheduled_at?: Date | null;
  created_at: Date;
  posted_at?: Date | null;
  updated_at: Date;
  post_accounts?: Array<{ platform: string }>;
  post_contents?: Array<{ platform: string }>;
}

export const ENTRY_SOURCE_FIELDS = {
  _id: 1,
  workspace_id: 1,
  status: 1,
  source: 1,
  scheduled_at: 1,
  created_at: 1,
  posted_at: 1,
  updated_at: 1,
  'post_accounts.platform': 1,
  'post_contents.platform': 1,
} as const;

const ms = (d: Date | null | undefined): number | null => (d ? d.getTime() : null);

export function entryOfDoc(d: EntrySource): ListEntry {
  const platforms = new Set([...(d.post_accounts ?? []).map((a) => a.platform), ...(d.post_contents ?? []).map((c) => c.platform)]);
  return {
    id: d._id,
    version: d.updated_at.getTime(),
    status: d.status as PostStatus,
    source: d.source,
    platforms: [...platforms].sort(),
    scheduledAt: ms(d.scheduled_at),
    createdAt: d.created_at.getTime(),
    postedAt: ms(d.posted_at),
  };
}

export function entryOfPost(p: Post): ListEntry {
  return entryOfDoc({
    _id: p.id,
    workspace_id: p.workspaceId,
    status: p.status,
    source: p.source,
    scheduled_at: p.scheduledAt,
    created_at: p.createdAt,
    posted_at: p.postedAt,
    updated_at: p.updatedAt,
    post_accounts: p.postAccounts,
    post_contents: p.postContents,
  });
}

export function tombstone(id: number, at: Date): ListEntry {
  return { id, version: at.getTime(), gone: true, status: 'draft', source: '', platforms: [], scheduledAt: null, createdAt: 0, postedAt: null };
}

export function encodeEntry(e: ListEntry): EncodedEntry {
  if (e.gone) return [e.id, e.version];
  return [e.id, e.version, e.status, e.source, e.platforms.join(','), e.scheduledAt, e.createdAt, e.postedAt];
}

export function decodeEntry(a: EncodedEntry): ListEntry {
  if (a.length === 2) return tombstone(a[0], new Date(a[1]));
  const [id, version, status, source, platforms, scheduledAt, createdAt, postedAt] = a;
  return { id, version, status: status as PostStatus, source, platforms: platforms ? platforms.split(',') : [], scheduledAt, createdAt, postedAt };
}

/** Whether `a` supersedes `b` (a newer version; a tombstone wins a tie). */
export function newer(a: ListEntry, b: ListEntry | undefined): boolean {
  if (!b) return true;
  if (a.version !== b.version) return a.version > b.version;
  return !!a.gone && !b.gone;
}

/** Puts `e` into `into` unless an entry of the same post that supersedes it is there already. */
export function mergeEntry(into: Map<number, ListEntry>, e: ListEntry): void {
  if (newer(e, into.get(e.id))) into.set(e.id, e);
}

const SORT_KEY: Record<ListPostsQuery['sort'], (e: ListEntry) => number | null> = {
  scheduled_at: (e) => e.scheduledAt,
  created_at: (e) => e.createdAt,
  posted_at: (e) => e.postedAt,
  id: (e) => e.id,
};

export interface ListSelection {
  /** The page's post ids, in order. */
  ids: number[];
  totalCount: number;
  counts: Partial<Record<PostStatus, number>>;
}

/**
 * Answers a list query over a workspace's live entries exactly as the store's own query would:
 * the status filter on top of the others, counts per status over every filter but the status, sorted
 * by the field then the id in one direction, a missing date sorting lowest (MongoDB's order).
 */
export function selectPage(entries: Iterable<ListEntry>, q: ListPostsQuery): ListSelection {
  const statuses = new Set<string>(q.statuses);
  const after = q.scheduledAfter?.getTime();
  const before = q.scheduledBefore?.getTime();
  const counts: Partial<Record<PostStatus, number>> = {};
  const matching: ListEntry[] = [];
  for (const e of entries) {
    if (e.gone) continue;
    if (q.source && e.source !== q.source) continue;
    if (after !== undefined || before !== undefined) {
      if (e.scheduledAt === null) continue;
      if (after !== undefined && e.scheduledAt < after) continue;
      if (before !== undefined && e.scheduledAt > before) continue;
    }
    if (q.platform && !e.platforms.includes(q.platform)) continue;
    counts[e.status] = (counts[e.status] ?? 0) + 1;
    if (statuses.has(e.status)) matching.push(e);
  }
  const key = SORT_KEY[q.sort];
  const sign = q.sortDirection === 'asc' ? 1 : -1;
  const compare = (a: ListEntry, b: ListEntry): number => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === null) return -sign;
      if (kb === null) return sign;
      return (ka - kb) * sign;
    }
    return (a.id - b.id) * sign;
  };
  const ids = topK(matching, q.offset + q.limit, compare)
    .slice(q.offset)
    .map((e) => e.id);
  return { ids, totalCount: matching.length, counts };
}

/** The first `k` items in `compare` order, without sorting the whole array when k is small. */
function topK<T>(items: T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k >= items.length / 4) return items.sort(compare).slice(0, k);
  // Keep a sorted window of the best k; most items lose against its last element at once.
  const best: T[] = [];
  for (const item of items) {
    if (best.length === k && compare(item, best[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(best[mid]!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > k) best.pop();
  }
  return best;
}
