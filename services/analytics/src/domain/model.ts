import type { Platform } from '@spa/vocabulary';

/** Cumulative counts a platform reports for one post. */
export interface Metrics {
  impressions: number;
  likes: number;
  replies: number;
  reposts: number;
  clicks: number;
}

export const ZERO: Metrics = { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 };
export const METRIC_NAMES = ['impressions', 'likes', 'replies', 'reposts', 'clicks'] as const;

/** One posted target whose metrics are followed over time. */
export interface Track {
  postAccountId: number;
  workspaceId: number;
  postId: number;
  socialAccountId: number;
  platform: Platform;
  platformPostId: string;
  postedAt: Date;
  /** active: fetches go on; disconnected: the account's credentials were refused; gone: the post or account no longer exists. */
  status: 'active' | 'disconnected' | 'gone';
  /** The latest snapshot applied (n, counts, when), if any. */
  last?: { n: number; metrics: Metrics; fetchedAt: Date } | undefined;
  /** The engagement rate this target contributes to its best-time cell, once it has impressions. */
  bestTimeRate?: number | undefined;
  /** That cell (`<YYYY-MM-DD>:<hour>` of posting, the workspace's zone when first counted): later rates replace it there. */
  bestTimeCell?: string | undefined;
  /** Dub links made for this target at publish time: their clicks are the target's clicks. */
  dubLinkIds?: string[] | undefined;
  statusReason?: string | undefined;
  /**
   * When its metrics are fetched: the n-th fetch is due at `dueAt` and found by the dispatcher in `slot`.
   * Kept on the track (one document per target, not one per fetch). Absent on a track stored before
   * 2026-11-28, whose fetches were stored one document each.
   */
  schedule?: FetchSlot[] | undefined;
}

/** One fetch of a track's schedule. */
export interface FetchSlot {
  n: number;
  dueAt: Date;
  slot: number;
}

/** One scheduled fetch: the n-th of a target, due at `dueAt`. */
export interface ScheduledFetch {
  id: string;
  postAccountId: number;
  n: number;
  dueAt: Date;
}

/** The fetch job of one entry of a track's schedule, named `<post account id>:<n>` (a repeat is dropped by that name). */
export const scheduledFetch = (postAccountId: number, f: { n: number; dueAt: Date }): ScheduledFetch => ({ id: `${postAccountId}:${f.n}`, postAccountId, n: f.n, dueAt: f.dueAt });

/** One fetch's counts, stored once under `<post_account_id>:<n>`. */
export interface Snapshot {
  id: string;
  workspaceId: number;
  postId: number;
  postAccountId: number;
  socialAccountId: number;
  platform: Platform;
  n: number;
  metrics: Metrics;
  fetchedAt: Date;
}

/** The growth attributed to one day of one account (the workspace's zone). */
export type DayTotals = Metrics;

/** One account's days of one month: `days` by `YYYY-MM-DD`. */
export interface MonthBucket {
  workspaceId: number;
  socialAccountId: number;
  platform: Platform;
  month: string;
  days: Record<string, DayTotals>;
}

/**
 * One account's best-time cells for the posts published in one month: `<YYYY-MM-DD>:<hour>` (the posting day and
 * hour in the workspace's zone) → sum of rates and samples. Kept per day so that a query by date range can select.
 */
export interface BestTimeBucket {
  workspaceId: number;
  socialAccountId: number;
  platform: Platform;
  month: string;
  cells: Record<string, { sum: number; samples: number }>;
}
