import type { Platform, PostStatus } from '@spa/vocabulary';
import type { Dispatch, Post, PostEvent, PostMetric } from './model.js';

export interface ListPostsQuery {
  workspaceId: number;
  statuses: PostStatus[];
  source?: string | undefined;
  scheduledAfter?: Date | undefined;
  scheduledBefore?: Date | undefined;
  platform?: Platform | undefined;
  sort: 'scheduled_at' | 'created_at' | 'posted_at' | 'id';
  sortDirection: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface ListPostsResult {
  posts: Post[];
  totalCount: number;
  /** Counts per status over every filter but the status filter. */
  counts: Partial<Record<PostStatus, number>>;
}

export interface PostsStore {
  nextIds(sequence: 'posts' | 'post_contents' | 'post_accounts', count: number): Promise<number[]>;
  /** Stores new posts and records the events they owe in the outbox (events first, so none is lost); all or none. */
  insert(posts: Post[], events: PostEvent[]): Promise<void>;
  /**
   * Stores a post whose id was fixed beforehand, with its event; false when a post with that id exists
   * (nothing changes then). A retry after a crash between the two writes completes them.
   */
  insertOnce(post: Post, event: PostEvent): Promise<boolean>;
  /** Replaces `current` with `next` unless the post changed meanwhile (null then). */
  replace(current: Post, next: Post, event: PostEvent): Promise<Post | null>;
  /** Deletes `current` unless it changed meanwhile (false then). */
  remove(current: Post, event: PostEvent): Promise<boolean>;
  get(workspaceId: number, postId: number): Promise<Post | null>;
  /**
   * The post as this process last read it (`get`) or moved it to publishing, if it still remembers it: possibly stale, so only a base
   * for a write guarded by its `updatedAt` (`replace`), which fails when the post changed meanwhile.
   */
  lastRead(workspaceId: number, postId: number): Post | undefined;
  list(query: ListPostsQuery): Promise<ListPostsResult>;
  /** Moves a post out of `from` (conditional update) and queues its event; null when the post is not in `from`. */
  transition(
    workspaceId: number,
    postId: number,
    from: PostStatus,
    patch: Partial<Pick<Post, 'status' | 'reviewedAt' | 'reviewAction' | 'rejectionReason' | 'updatedAt'>>,
    event?: PostEvent,
  ): Promise<Post | null>;
  /** When the account's upcoming posts (scheduled, pending review or publishing) are due, within [from, to]. */
  scheduledTimes(workspaceId: number, socialAccountId: number, from: Date, to: Date): Promise<Date[]>;
  /** The database server's clock: one clock for every scheduler replica, whatever their own clocks say. */
  databaseNow(): Promise<Date>;
  /**
   * Scheduled posts of every workspace whose time has come, oldest first; given `since`, only those due
   * from then (a read that costs what is due in the window, not what is scheduled).
   */
  duePosts(now: Date, limit: number, since?: Date): Promise<Post[]>;
  /** Inserts the dispatch claims in one write, each on its own; per claim, false when another dispatcher holds it. */
  claimDispatches(dispatches: Dispatch[]): Promise<boolean[]>;
  getDispatch(id: string): Promise<Dispatch | null>;
  /**
   * Moves the posts that are still as read (unchanged since) to publishing (updated at `at`), in one
   * write; answers how many moved (one that changed meanwhile is left as it is).
   */
  startPublishing(posts: Post[], at: Date): Promise<number>;
  /** Finishes the claims (their jobs sent, or none needed), in one write: they no longer stand. */
  finishDispatches(ids: string[]): Promise<void>;
  /** Claims still standing (their job never confirmed sent: the dispatcher died), claimed before `before`. */
  unsentDispatches(before: Date, limit: number): Promise<Dispatch[]>;
  /** Sets a target's latest metric snapshot unless the post changed since `current` was read (false then). */
  recordMetric(current: Post, postAccountId: number, metric: PostMetric): Promise<boolean>;
}

/** The publisher's work queue. */
export interface PublishJobs {
  /**
   * Sends the publish job of a publishing post; the post's `origin` (the request that asked for it) is resumed, so
   * its logs and trace continue. `moved`: this dispatcher has just moved the post to publishing, so it is as given,
   * and the job carries it (a publishing post can be neither edited nor deleted): the publisher need not read it.
   * Otherwise (a job sent again for a claim whose holder died, or a post another dispatcher moved) the job carries
   * only its ids: its post may have ended since, and the publisher reads it.
   */
  send(job: { dispatchId: string; post: Post; moved: boolean }): Promise<void>;
}

export interface WorkspaceSettings {
  reviewRequired: boolean;
  /** The workspace's plan (`starter`, `pro`, `team`…); absent when unknown. */
  tier?: string | undefined;
  /** How far ahead its plan lets posts be scheduled (the subscription's max_schedule_days); absent: no limit. */
  maxScheduleDays?: number | undefined;
}

export interface TargetAccount {
  id: number;
  platform: Platform;
  username: string;
  disconnected: boolean;
}

export interface PostingSchedule {
  id: number;
  socialAccountId: number;
  timezone: string;
  maxPostsPerDay: number;
  paused: boolean;
  postingSlots: Array<{ id: number; dayOfWeek: number; timeOfDay: string; enabled: boolean; source: string }>;
}

/** What the posts service needs from the accounts service. */
export interface AccountsPort {
  workspaceSettings(workspaceId: number): Promise<WorkspaceSettings>;
  socialAccounts(workspaceId: number, ids: number[]): Promise<TargetAccount[]>;
  /** The account's posting schedule; NOT_FOUND when the account is not the workspace's. */
  postingSchedule(workspaceId: number, socialAccountId: number): Promise<PostingSchedule>;
}

export interface Clock {
  now(): Date;
}

export interface PostsDeps {
  store: PostsStore;
  accounts: AccountsPort;
  clock: Clock;
  /** Called after a write that queued events, to publish them without waiting for the sweeper. */
  flushEvents(): void;
  jobs: PublishJobs;
}
