import type { Platform } from '@spa/vocabulary';
import type { BestTimeBucket, Metrics, MonthBucket, ScheduledFetch, Snapshot, Track } from './model.js';

/** The store of the analytics service. Every write is a unique insert or a single-document write. */
export interface AnalyticsStore {
  /** Inserts the track unless it exists (false then). */
  insertTrack(track: Track): Promise<boolean>;
  getTrack(postAccountId: number): Promise<Track | null>;
  tracks(postAccountIds: number[]): Promise<Track[]>;
  saveTrack(track: Track): Promise<void>;
  /** Inserts the fetches that are not there yet (by id). */
  insertFetches(fetches: Array<ScheduledFetch & { slot: number }>): Promise<void>;
  fetchesInSlot(slot: number): Promise<ScheduledFetch[]>;
  /** The last slot whose fetches were sent; undefined before the first. */
  dispatchCursor(): Promise<number | undefined>;
  setDispatchCursor(slot: number): Promise<void>;
  /** Inserts the snapshot; false when it is already stored. */
  insertSnapshot(snapshot: Snapshot): Promise<boolean>;
  /** Month buckets of the workspace, with the last result sequence applied to each. */
  monthBuckets(workspaceId: number, months: string[]): Promise<Array<MonthBucket & { appliedSeq: number }>>;
  saveMonthBucket(bucket: MonthBucket, appliedSeq: number): Promise<void>;
  bestTimeBuckets(workspaceId: number): Promise<Array<BestTimeBucket & { appliedSeq: number }>>;
  saveBestTimeBucket(bucket: BestTimeBucket, appliedSeq: number): Promise<void>;
}

/** What analytics needs from the accounts service. */
export interface AccountsPort {
  /** The workspace's IANA zone (its preferences). */
  timezone(workspaceId: number): Promise<string>;
  socialAccounts(workspaceId: number): Promise<Array<{ id: number; platform: Platform }>>;
}

/** What analytics needs from the posts service: a post's targets once it reached a terminal state. */
export interface PostsPort {
  postedTargets(workspaceId: number, postId: number): Promise<Array<{ postAccountId: number; socialAccountId: number; platform: Platform; platformPostId: string; postedAt: Date }>>;
}

/** Sends fetch jobs to the publisher and announces snapshots (JetStream). */
export interface Messaging {
  sendFetch(track: Track, fetch: ScheduledFetch): Promise<void>;
  announceSnapshot(track: Track, snapshot: { metrics: Metrics; fetchedAt: Date }): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export interface AnalyticsDeps {
  store: AnalyticsStore;
  accounts: AccountsPort;
  posts: PostsPort;
  messaging: Messaging;
  clock: Clock;
}
