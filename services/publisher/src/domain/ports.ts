import type { Platform, PublishErrorClass } from '@spa/vocabulary';
import type { PostOptions } from '@spa/platforms';
import type { Connector, ContentPart, MediaItem, TargetAccount } from '../connectors/types.js';

/** A post as the publisher needs it: its targets and, per platform, its ordered parts. */
export interface PostToPublish {
  workspaceId: number;
  postId: number;
  status: string;
  /** A dry run: every target goes through preflight and never through the platform's publishing call. */
  dryRun: boolean;
  /** When the post was due (absent for a publish-now without a schedule). */
  scheduledAt?: Date | undefined;
  targets: Array<{ postAccountId: number; socialAccountId: number; platform: Platform; platformStatus?: string | undefined }>;
  partsFor(platform: Platform): ContentPart[];
}

export interface TargetOutcome {
  postAccountId: number;
  /** `dry_run`: the target passed preflight and, being a dry run, was not published. */
  platformStatus: 'posted' | 'failed' | 'dry_run';
  platformPostId?: string | undefined;
  permalink?: string | undefined;
  platformError?: string | undefined;
  disconnected: boolean;
  /** Why it failed, as a class (`revoked`: the platform refused the account's token); absent when it did not. */
  errorClass?: PublishErrorClass | undefined;
  /** The target's first link as published: its Dub short link and the URL it stands for. */
  dubShortUrl?: string | undefined;
  dubOriginalUrl?: string | undefined;
}

/** Short links for a target's URLs (the analytics service; Dub). */
export interface LinksPort {
  shorten(workspaceId: number, postAccountId: number, texts: string[]): Promise<{ texts: string[]; first?: { shortUrl: string; originalUrl: string } | undefined }>;
}

/** Media as each platform takes it (the media service's pipeline). */
export interface MediaPort {
  /**
   * The item as `platform` takes it: itself with its facts when it fits, otherwise its converted variant (its
   * own key, url, bytes and facts). A file that cannot be made to fit is a ConnectorError `rejected` naming
   * the rule; media that cannot be reached now, `transient`.
   */
  prepare(item: MediaItem, platform: Platform, fit: NonNullable<PostOptions['media_fit']>): Promise<MediaItem>;
}

export interface PostsPort {
  getPost(workspaceId: number, postId: number): Promise<PostToPublish>;
  recordResults(workspaceId: number, postId: number, outcomes: TargetOutcome[]): Promise<void>;
}

export interface AccountsPort {
  targets(workspaceId: number, socialAccountIds: number[]): Promise<TargetAccount[]>;
  markDisconnected(workspaceId: number, socialAccountId: number): Promise<void>;
  /** Keeps the class of a failed publish on the account (its health); optional: best effort. */
  recordPublishError?(workspaceId: number, socialAccountId: number, errorClass: PublishErrorClass): Promise<void>;
}

/** One try at publishing one target; `n` counts from 1 per target. */
export interface Attempt {
  postAccountId: number;
  n: number;
  startedAt: Date;
  /** Renewed by the owner while its call runs; a lease counts from here. */
  aliveAt?: Date | undefined;
  /** Absent while the attempt runs (or if its publisher died during it). */
  outcome?:
    | { kind: 'posted'; platformPostId: string; permalink: string }
    | { kind: 'dry_run' }
    | { kind: 'failed'; error: string; final: boolean; disconnected: boolean; retryAfterMs?: number | undefined }
    | { kind: 'unknown'; error: string }
    | undefined;
}

/** Names one attempt: its target and number. */
export type AttemptKey = Pick<Attempt, 'postAccountId' | 'n'>;

export interface AttemptStore {
  /** Every attempt of a target, in order. */
  attempts(postAccountId: number): Promise<Attempt[]>;
  /**
   * Inserts the attempts in one write, each on its own: per attempt, true when this publisher claimed
   * it, false when it already existed (another publisher's, or an earlier try's).
   */
  claim(attempts: Attempt[]): Promise<boolean[]>;
  /** Records the outcomes in one write (only the claimer writes an attempt). */
  record(outcomes: Array<AttemptKey & { outcome: NonNullable<Attempt['outcome']> }>): Promise<void>;
  /** The owner says it is still working on the attempts (renews their leases), in one write. */
  touch(attempts: AttemptKey[], at: Date): Promise<void>;
}

/** What happened to one target, for operators' signals (metrics); never affects the outcome. */
export interface TargetFinished {
  platform: Platform;
  platformStatus: TargetOutcome['platformStatus'];
  /** A short class of failure (`disconnected`, `refused`, ...), `none` when it did not fail. */
  errorClass: string;
  /** From the post's scheduled time to when the outcome was known, when the post was scheduled. */
  lagMs?: number | undefined;
}

export interface PublishObserver {
  targetFinished(event: TargetFinished): void;
}

export interface PublisherDeps {
  /** Told of every finished target (metrics); optional. */
  observer?: PublishObserver;
  posts: PostsPort;
  accounts: AccountsPort;
  /** Link shortening at publish time; undefined: URLs are published as written. */
  links?: LinksPort | undefined;
  attempts: AttemptStore;
  /** Media made to fit each target's platform before it is published or dry-run; undefined: media go as they are. */
  media?: MediaPort | undefined;
  connectors: Partial<Record<Platform, Connector>>;
  clock: { now(): Date };
  sleep(ms: number): Promise<void>;
  /** Attempts per target before it fails (transient errors and rate limits are retried). */
  maxAttempts: number;
  /** An attempt without an outcome older than this belongs to a publisher that died. */
  attemptLeaseMs: number;
}
