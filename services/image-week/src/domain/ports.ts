import type { PostingSchedule } from '@spa/slots';
import type { ItemImage, ItemRecord, QuotePlatform, RunRecord, RunStatus, ShortfallReason } from './model.js';

/** Side effects of the Quote Week domain, behind small ports (implemented in data/ and grpc/). */

export interface Clock {
  now(): Date;
}

export interface RunStore {
  newRunId(): Promise<number>;
  /**
   * The run id bound to a create's idempotency key in the workspace: the first call binds `newId()` (a unique
   * insert), every later one (any replica, after any crash) answers that same id.
   */
  bindKey(workspaceId: number, key: string, newId: () => Promise<number>): Promise<number>;
  newItemIds(count: number): Promise<number[]>;
  insertRun(run: RunRecord): Promise<void>;
  deleteRun(workspaceId: number, runId: number): Promise<void>;
  run(workspaceId: number, runId: number): Promise<RunRecord | undefined>;
  /** Every run of a workspace, newest first (a workspace has a few a month). */
  runs(workspaceId: number): Promise<RunRecord[]>;
  updateRun(runId: number, patch: Partial<Pick<RunRecord, 'plannedAt' | 'shortfallReason' | 'errorMessage' | 'canceledAt'>>): Promise<void>;
  /** Inserts the planned items; an item already there (same run and position) is kept. */
  insertItems(items: ItemRecord[]): Promise<void>;
  items(runIds: number[]): Promise<ItemRecord[]>;
  item(runId: number, itemId: number): Promise<ItemRecord | undefined>;
  /** Only the holder of the item's lease (or a request on a failed item no worker holds) writes an item. */
  updateItem(itemId: number, patch: Partial<Omit<ItemRecord, 'id' | 'runId' | 'workspaceId'>>): Promise<void>;
  /** Stale work for the sweeper: runs not planned and items not finished, untouched since `before`. */
  stale(before: Date): Promise<{ runs: RunRecord[]; items: ItemRecord[] }>;
}

/** Exclusive, expiring claims (unique inserts): one worker per item, at most N runs rendering per workspace. */
export interface Leases {
  /** True when `owner` now holds `key` until now + ttlMs (taken when free or expired, renewed when already owned). */
  acquire(key: string, owner: string, ttlMs: number): Promise<boolean>;
  release(key: string, owner: string): Promise<void>;
  /** Whether `owner` holds `key` now (not expired). */
  holds(key: string, owner: string): Promise<boolean>;
}

/** Which one post an item becomes: a unique claim per item, taken by its worker or by a cancel. */
export interface PostClaims {
  /** 'mine' when the claim is (now or already) the worker's, 'canceled' when a cancel took it first. */
  claim(itemId: number): Promise<{ state: 'mine' | 'canceled'; postId?: number | undefined }>;
  /** Taken by a cancel for an item not yet posted; false when the item's worker already holds it. */
  cancel(itemId: number): Promise<boolean>;
  recordPost(itemId: number, postId: number): Promise<void>;
}

/** The monthly run quota: one unique claim per month slot, naming the run that holds it. */
export interface RunQuotaClaims {
  claimed(workspaceId: number, month: string): Promise<{ slot: number; runId: number }[]>;
  claim(workspaceId: number, month: string, slot: number, runId: number): Promise<boolean>;
  /** Frees `slot` if `runId` still holds it. */
  release(workspaceId: number, month: string, slot: number, runId: number): Promise<void>;
}

/** One batch of texts asked of the generation service, as recorded (an empty batch with quotaHit: the daily quota ran out). */
export interface RecordedBatch {
  texts: string[];
  quotaHit: boolean;
}

/**
 * What a plan (or a regenerated item) asked of the generation service and got, recorded as it goes, so that a worker
 * taking over after a crash reuses it instead of asking (and being charged the daily quota) again. Unique inserts
 * keyed by `scope` (`plan:<run>`, `item:<item>:r<round>`) and batch number.
 */
export interface QuoteLedger {
  /** How many quotes `scope` wants: the first call fixes `wanted()` (a unique insert); later calls answer that number. */
  budget(scope: string, wanted: () => Promise<number>): Promise<number>;
  /** The recorded batches of `scope` by number. */
  batches(scope: string): Promise<Map<number, RecordedBatch>>;
  /** Records batch n; when another worker recorded it first, answers theirs (so both go on with the same texts). */
  record(scope: string, n: number, batch: RecordedBatch): Promise<RecordedBatch>;
}

export interface SocialAccountInfo {
  id: number;
  platform: string;
  /** The account's name on the platform (its handle). */
  username: string;
  disconnected: boolean;
}

export interface AccountsPort {
  socialAccounts(workspaceId: number, ids: number[]): Promise<SocialAccountInfo[]>;
  postingSchedule(workspaceId: number, socialAccountId: number): Promise<PostingSchedule | undefined>;
  plan(workspaceId: number): Promise<{ tier: string; timezone: string }>;
}

export interface PostsPort {
  /** When the account's upcoming posts are scheduled (taken slots). */
  scheduledTimes(workspaceId: number, socialAccountId: number, from: Date, to: Date): Promise<Date[]>;
  createPost(input: NewQuotePost): Promise<number>;
  /** A post this item already created (after a crash between creating it and recording it). */
  findItemPost(workspaceId: number, itemId: number): Promise<number | undefined>;
}

export interface NewQuotePost {
  workspaceId: number;
  itemId: number;
  runId: number;
  platform: QuotePlatform;
  socialAccountId: number;
  caption: string;
  r2Key: string;
  scheduledAt?: Date | undefined;
  boardId?: string | undefined;
  link?: string | undefined;
}

export interface MediaPort {
  storePng(workspaceId: number, png: Buffer): Promise<Pick<ItemImage, 'url' | 'r2Key'>>;
}

export interface QuotesPort {
  /** Units of the daily generation quota left today. */
  remaining(workspaceId: number): Promise<number>;
  /**
   * `count` texts in the workspace's voice on `topic` (each consumes one daily generation); DAILY_LIMIT_EXCEEDED when
   * too few are left. `batchKey` names the batch: asked again with the same key (a worker taking over after a crash
   * during the call), it is not charged again.
   */
  write(workspaceId: number, topic: string, count: number, batchKey: string): Promise<string[]>;
}

/** Where a card's quote was set: its block of lines (px of the card) and the type size. */
export interface TextRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  fontSize: number;
}

export interface RenderedCard {
  png: Buffer;
  width: number;
  height: number;
  template: string;
  watermarked: boolean;
  /** The quote's block, so a reader can read just that (a hint: the whole card is still the card). */
  textRegion?: TextRegion | undefined;
}

export interface CardRenderer {
  render(input: {
    quote: string;
    platform: QuotePlatform;
    aspect?: 'portrait' | 'square' | undefined;
    attempt: number;
    watermark?: string | undefined;
    templateOffset?: number;
  }): Promise<RenderedCard>;
}

export interface ReadBack {
  text: string;
  /** What the read cost (0 for the built-in OCR). */
  costCents: number;
  reader: string;
}

export interface CardReader {
  /** The card's text; `region` (where the renderer set the quote) lets a reader read only that block. */
  read(png: Buffer, region?: TextRegion): Promise<ReadBack>;
}

export interface Jobs {
  dispatch(job: { workspaceId: number; runId: number; itemId: number; dispatchId: string }): Promise<void>;
}

export interface ImageWeekDeps {
  /** Told how long each card took to render and verify, and of each garbled read-back (metrics); optional. */
  observer?: { cardChecked(ms: number, garbled: boolean): void };
  store: RunStore;
  leases: Leases;
  postClaims: PostClaims;
  quota: RunQuotaClaims;
  quoteLedger: QuoteLedger;
  accounts: AccountsPort;
  posts: PostsPort;
  media: MediaPort;
  quotes: QuotesPort;
  renderer: CardRenderer;
  reader: CardReader;
  jobs: Jobs;
  clock: Clock;
  /** Where a run's end is announced; without it, nothing is. */
  events?: RunEvents | undefined;
  settings: {
    templateVersion: string;
    /** Runs of one workspace rendering at once. */
    rendersPerWorkspace: number;
    leaseMs: number;
    maxAttempts: number;
  };
}

export type { RunStatus, ShortfallReason };
import type { RunEvents } from './run-events.js';
