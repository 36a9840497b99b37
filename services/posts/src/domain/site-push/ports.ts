import type { Platform } from '@spa/vocabulary';
import type { PostsDeps } from '../ports.js';
import type { Article } from './article.js';

export interface SiteRuleView {
  id: number;
  platform: Platform;
  trigger: string;
  scheduleMode: 'draft' | 'scheduled';
  enabled: boolean;
}

export interface SiteView {
  name: string;
  url: string;
  cms: string;
}

/** The site and its rules, as the accounts service keeps them. */
export interface SitesPort {
  /** NOT_FOUND when the site is not the workspace's. */
  site(workspaceId: number, siteId: number): Promise<SiteView>;
  rules(workspaceId: number, siteId: number): Promise<SiteRuleView[]>;
  /** The workspace's connected (not disconnected) accounts. */
  connectedAccounts(workspaceId: number): Promise<Array<{ id: number; platform: Platform }>>;
}

/** The generation service: a post about `topic` for `platform`, in the workspace's voice. */
export interface WriterPort {
  write(workspaceId: number, input: { topic: string; platform: Platform; angle: string }): Promise<string>;
}

/** One record per (site, URL): the article's latest content and what was made from it. */
export interface SitePushRecord {
  key: string;
  workspaceId: number;
  siteId: number;
  article: Article;
  contentHash: string;
  firstPushedAt: Date;
  lastPushedAt: Date;
  /** Enabled rules with a connected account when last pushed. */
  matchedRules: number;
  /** `pending`: drafts of `contentHash` still to make; `done`: made (`consumedAt`); `unmatched`: no rule. */
  state: 'pending' | 'done' | 'unmatched';
  /** When the drafts of `consumedHash` were all created. */
  consumedAt?: Date | undefined;
  consumedHash?: string | undefined;
  /** A worker is on it until then (another takes over after, e.g. when it died). */
  leaseUntil?: Date | undefined;
}

/** The right to make the post of one rule for one content of one article: won by a unique insert. */
export interface DraftClaim {
  id: string;
  pushKey: string;
  contentHash: string;
  workspaceId: number;
  ruleId: number;
  platform: Platform;
  /** Fixed when claimed: whoever completes the claim creates the post under this id, once. */
  postId: number;
  claimedAt: Date;
}

export interface SitePushStore {
  getPush(workspaceId: number, key: string): Promise<SitePushRecord | null>;
  /** Inserts the first push of a URL; false when it exists already. */
  insertPush(record: SitePushRecord): Promise<boolean>;
  /** Updates the article, state and lease of an existing record (last writer wins). */
  updatePush(record: SitePushRecord): Promise<void>;
  /** Moves the push's lease to `until` (a worker taking it over). */
  extendLease(workspaceId: number, key: string, until: Date): Promise<void>;
  /**
   * Sets consumed_at unless the content changed meanwhile, announcing it (`site_push.consumed`, once per push
   * and content however many workers mark it) with what the drafts were made of.
   */
  markConsumed(workspaceId: number, key: string, contentHash: string, at: Date, consumed?: { siteId: number; url: string; title: string; postIds: number[] }): Promise<void>;
  /** Appends one push to the site's log (unmatched pushes are counted from it). */
  logPush(entry: { workspaceId: number; siteId: number; key: string; at: Date; matched: boolean }): Promise<void>;
  unmatchedCount(workspaceId: number, siteId: number): Promise<number>;
  /** The site's most recently pushed articles, newest first. */
  recent(workspaceId: number, siteId: number, limit: number): Promise<SitePushRecord[]>;
  /** Pending pushes whose lease ran out before `now` (their worker died or never started). */
  stalled(now: Date, limit: number): Promise<SitePushRecord[]>;
  /** Inserts the claim, or returns the one that won (same id). */
  claim(claim: DraftClaim): Promise<DraftClaim>;
  claims(workspaceId: number, pushKey: string, contentHash: string): Promise<DraftClaim[]>;
}

export interface SitePushDeps extends PostsDeps {
  sites: SitesPort;
  writer: WriterPort;
  sitePushes: SitePushStore;
  /** How long a worker holds a pending push before another may take it over. */
  leaseMs: number;
  /** Logs a failure of the background draft making (the sweeper retries it). */
  onBackgroundError(err: unknown, key: string): void;
}
