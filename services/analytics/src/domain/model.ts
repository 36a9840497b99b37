import type { Platform } from '@spa/vocabulary';

export const METRIC_NAMES = ['impressions', 'likes', 'replies', 'reposts', 'clicks'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
/** The counts that are interactions (engagement), all but impressions. */
export const INTERACTIONS = ['likes', 'replies', 'reposts', 'clicks'] as const satisfies readonly MetricName[];

/** Cumulative counts a platform reports for one post (or their growth): null where the platform does not report that count. */
export type Metrics = Record<MetricName, number | null>;

/** No count known. */
export const UNREPORTED: Metrics = { impressions: null, likes: null, replies: null, reposts: null, clicks: null };

/** The engagement rate's terms of a post (or their growth): its impressions and its reported interactions. */
export interface RateTerms {
  impressions: number;
  engagements: number;
}

/** One post's growth of each count, and of its rate's terms (null when the post reports no rate). */
export type PostGrowth = Metrics & { ratedImpressions: number | null; ratedEngagements: number | null };

/** Per count, how many posts reported it. */
export type ReportedBy = Record<MetricName, number>;

/**
 * Counts summed over posts: each count the sum of the posts that reported it (null when none did) and how
 * many did; and the engagement rate's terms, taken from the posts that reported impressions and at least
 * one interaction only, so a platform without impressions never inflates the rate.
 */
export interface Sums {
  values: Metrics;
  reportedBy: ReportedBy;
  rated: RateTerms;
}

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
  /** The latest snapshot applied (n, counts as reported, when), if any. */
  last?: { n: number; metrics: Metrics; fetchedAt: Date } | undefined;
  /**
   * The latest known value of each count, whose growth is already attributed to days: a count a fetch did not
   * report keeps its earlier value, so when it is reported again only its growth since then is added.
   * Absent on a track stored before counts could be unreported: then `last.metrics` is it.
   */
  counted?: Metrics | undefined;
  /**
   * The rate's terms of the latest snapshot that had both impressions and an interaction: the rate's terms grow from
   * there, so a fetch missing either adds nothing to the rate and loses nothing of it.
   */
  rated?: RateTerms | undefined;
  /** The engagement rate this target contributes to its best-time cell, once it has impressions. */
  bestTimeRate?: number | undefined;
  /** That cell (`<YYYY-MM-DD>:<hour>` of posting, the workspace's zone when first counted): later rates replace it there. */
  bestTimeCell?: string | undefined;
  /** Dub links made for this target at publish time: their clicks are the target's clicks. */
  dubLinkIds?: string[] | undefined;
  statusReason?: string | undefined;
  /**
   * When its metrics are fetched: the n-th fetch is due at `dueAt` and found by the dispatcher in `slot`.
   * Kept on the track (one document per target, not one per fetch). Absent on a track stored by an
   * earlier version, whose fetches were stored one document each.
   */
  schedule?: FetchSlot[] | undefined;
}

/** The latest known value of each count of a target (whose growth is already attributed to days). */
export const knownCounts = (track: Track): Metrics => track.counted ?? track.last?.metrics ?? UNREPORTED;

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

/** The growth attributed to one day of one account (the workspace's zone); `reportedBy` counts each post once a day. */
export type DayTotals = Sums;

/** The first and last day (`YYYY-MM-DD`) of a month that a post's growth of one count was attributed to. */
export type ReportSpan = [first: string, last: string];

/** One account's days of one month: `days` by `YYYY-MM-DD`. */
export interface MonthBucket {
  workspaceId: number;
  socialAccountId: number;
  platform: Platform;
  month: string;
  days: Record<string, DayTotals>;
  /**
   * By post account id, the days of this month each count of the post was reported on (its growth attributed
   * there): how many distinct posts a range's sums count, which the days alone cannot say.
   */
  reporters: Record<string, Partial<Record<MetricName, ReportSpan>>>;
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
