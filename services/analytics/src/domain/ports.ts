import type { Platform } from '@spa/vocabulary';
import type { BestTimeBucket, Metrics, MonthBucket, ScheduledFetch, Snapshot, Track } from './model.js';

/** The store of the analytics service. Every write is a unique insert or a single-document write. */
export interface AnalyticsStore {
  /** Inserts the track, with its fetch schedule, unless it exists (false then). */
  insertTrack(track: Track): Promise<boolean>;
  getTrack(postAccountId: number): Promise<Track | null>;
  /** Replaces the track; with `ifStatus`, only while it still has that status (a fetch that ended it meanwhile stands). */
  saveTrack(track: Track, ifStatus?: Track['status']): Promise<void>;
  /** Ends the target's fetches (its post is gone, or its account disconnected): one write, no read. */
  endTrack(postAccountId: number, status: 'gone' | 'disconnected', reason: string | undefined): Promise<void>;
  /** The fetches scheduled in a slot, each with its track (an equality read on the slot). */
  fetchesInSlot(slot: number): Promise<Array<{ track: Track; fetch: ScheduledFetch }>>;
  /** The last slot whose fetches were sent; undefined before the first. */
  dispatchCursor(): Promise<number | undefined>;
  setDispatchCursor(slot: number): Promise<void>;
  /** Inserts the snapshot; false when it is already stored. */
  insertSnapshot(snapshot: Snapshot): Promise<boolean>;
  /** Month buckets of the workspace, with the last result sequence applied to each. */
  monthBuckets(workspaceId: number, months: string[]): Promise<Array<MonthBucket & { appliedSeq: number }>>;
  saveMonthBucket(bucket: MonthBucket, appliedSeq: number): Promise<void>;
  /** Best-time buckets of the workspace for these posting months (every month when omitted). */
  bestTimeBuckets(workspaceId: number, months?: string[]): Promise<Array<BestTimeBucket & { appliedSeq: number }>>;
  saveBestTimeBucket(bucket: BestTimeBucket, appliedSeq: number): Promise<void>;
  /** A stored snapshot (a result handled again after a crash reuses its counts). */
  snapshot(id: string): Promise<Snapshot | null>;
}

/** One Dub short link of a target: its `index`-th distinct URL. */
export interface ShortLink {
  postAccountId: number;
  workspaceId: number;
  index: number;
  originalUrl: string;
  shortUrl: string;
  dubLinkId: string;
}

export interface ShortLinkStore {
  linksOf(postAccountId: number): Promise<ShortLink[]>;
  /** Stores the link unless one is stored for the same target and index: then that one is answered. */
  insert(link: ShortLink): Promise<ShortLink>;
}

/** Dub's links API (dub.co), or its sandbox stand-in. */
export interface DubPort {
  /** Creates the short link of `url` with `externalId`; when that externalId exists already, answers that link. */
  createLink(url: string, externalId: string): Promise<{ linkId: string; shortUrl: string }>;
  /** Clicks on the link since it was made. */
  clicks(linkId: string): Promise<number>;
}

/** A workspace's link shortening (its preference, kept by accounts) and the Dub key its links are made with. */
export interface WorkspaceDub {
  /** Shortening is on: URLs are replaced at publish time. */
  enabled: boolean;
  /** Dub's API with the workspace's key (its own, else the deployment's fallback); undefined when it has none. */
  dub?: DubPort | undefined;
}

/** Link shortening: the links made, and Dub per workspace. */
export interface ShortLinkDeps {
  store: ShortLinkStore;
  dubFor(workspaceId: number): Promise<WorkspaceDub>;
}

/** What analytics needs from the accounts service. */
export interface AccountsPort {
  /** The workspace's IANA zone (its preferences). */
  timezone(workspaceId: number): Promise<string>;
  socialAccounts(workspaceId: number): Promise<Array<{ id: number; platform: Platform }>>;
}

/** The workspace's link shortening, from the accounts service (its preferences). */
export interface LinkSettingsPort {
  /** On or off, and the Dub key to use ('' when it has none), decrypted. */
  linkShortening(workspaceId: number): Promise<{ enabled: boolean; dubApiKey: string }>;
}

/** What analytics needs from the posts service: a post's targets once it reached a terminal state. */
export interface PostsPort {
  postedTargets(workspaceId: number, postId: number): Promise<PostedTarget[]>;
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
  /** Dub short links (each workspace turns them on in its preferences); undefined: never (tests). */
  links?: ShortLinkDeps | undefined;
  /** Told of a Dub clicks read that failed (the snapshot keeps the clicks known); optional. */
  onLinkError?: (err: unknown) => void;
}

/** A target the platform accepted (platform status posted, with its platform post id). */
export interface PostedTarget {
  postAccountId: number;
  socialAccountId: number;
  platform: Platform;
  platformPostId: string;
  postedAt: Date;
  /** The target was published with short links (false: without); undefined when not known, then its links are looked up. */
  shortened?: boolean | undefined;
}
