import type { PostOptions } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import type { IdeasStore } from '../ideas/model.js';
import type { CarouselDocument, ContentPlan, PlanRun, RunItem, ScheduleMode } from './model.js';

/** Writes `count` distinct post bodies for one platform, within its limits (the generation service's Writer). */
export interface PostWriter {
  write(req: { workspaceId: number; platform: Platform; topic: string; angle?: string; count: number }): Promise<{ bodies: string[]; degradedCount: number; model: string }>;
}

/** Writes a LinkedIn carousel and stores its PDF (the generation service's carousel generation, unmetered). */
export interface CarouselMaker {
  make(req: { workspaceId: number; topic: string; angle?: string | undefined }): Promise<{ caption: string; document: CarouselDocument }>;
}

/** A Quote Week run for one quote_card channel. */
export interface NewQuoteWeekRun {
  workspaceId: number;
  /** The same key answers the same run: a resumed plan run never starts a second one. */
  idempotencyKey: string;
  contentPlanId: number;
  topic: string;
  platform: 'instagram' | 'pinterest';
  socialAccountId: number;
  /** Pinterest only. */
  boardId?: string | undefined;
  link?: string | undefined;
  scheduleMode: ScheduleMode;
  watermarkEnabled: boolean;
  watermarkText?: string | undefined;
  watermarkEveryN?: number | undefined;
  dryRun: boolean;
}

/** What plans need from the image-week service. */
export interface QuoteWeekPort {
  /** Starts (or, for a known key, finds) the run; its id. quota_exceeded when the monthly Quote Week quota is used up. */
  startRun(run: NewQuoteWeekRun): Promise<number>;
}

export interface WorkspaceAccount {
  id: number;
  platform: Platform;
  disconnected: boolean;
}

/** What plans need from the accounts service. */
export interface AccountsPort {
  /** The workspace's accounts among `ids` (others are not returned). */
  socialAccounts(workspaceId: number, ids: number[]): Promise<WorkspaceAccount[]>;
  /** The workspace's IANA time zone (where its days and plan schedules are). */
  timezone(workspaceId: number): Promise<string>;
}

export interface NewPlanPost {
  workspaceId: number;
  body: string;
  /** The channel's platform (its account's). */
  platform: Platform;
  socialAccountId: number;
  /** The channel's choices for its posts (see channelPostOptions), stored in the content's metadata. */
  options: PostOptions;
  /** Absent: a draft. */
  scheduledAt?: Date | undefined;
  /** Every preflight at publish time, never the platform call. */
  dryRun: boolean;
  /** A LinkedIn carousel: the post is a document post carrying this PDF. */
  carousel?: CarouselDocument | undefined;
}

/** What plans need from the posts service. */
export interface PostsPort {
  createPost(post: NewPlanPost): Promise<number>;
  /** The account's next free posting slot, or null (paused, no slot within the horizon). */
  nextSlot(workspaceId: number, socialAccountId: number): Promise<Date | null>;
  /** A plan post of the account with exactly this body created at or after `since` (recovery of an interrupted run). */
  findPlanPost(workspaceId: number, platform: Platform, socialAccountId: number, body: string, since: Date): Promise<number | null>;
}

export interface PlansStore {
  nextPlanId(): Promise<number>;
  /** Inserts into the owner's numbered slot; false when that slot is taken. */
  insertPlan(plan: ContentPlan): Promise<boolean>;
  /** Slots of the user's existing plans. */
  usedSlots(ownerUserId: number): Promise<number[]>;
  getPlan(workspaceId: number, id: number): Promise<ContentPlan | null>;
  listPlans(workspaceId: number): Promise<ContentPlan[]>;
  /** Replaces the plan's client fields and schedule (last_run_at is left alone). */
  savePlan(plan: ContentPlan): Promise<ContentPlan | null>;
  deletePlan(workspaceId: number, id: number): Promise<boolean>;
  /** Active plans whose next run is due at `now`, earliest first. */
  duePlans(now: Date, limit: number): Promise<ContentPlan[]>;
  /** After a run: sets last_run_at, and next_run_at when `expectedNextRunAt` is still the plan's next run. */
  recordRun(planId: number, lastRunAt: Date, next?: { expected: Date; nextRunAt: Date | undefined; timezone: string }): Promise<void>;

  /** Claims a run by inserting it; false when it exists already. */
  insertRun(run: PlanRun): Promise<boolean>;
  getRun(id: string): Promise<PlanRun | null>;
  latestRun(planId: number): Promise<PlanRun | null>;
  /** Running runs whose owner's lease ended before `now`. */
  staleRuns(now: Date, limit: number): Promise<PlanRun[]>;
  /** Claims attempt `attempt` of a run (a takeover); false when another process claimed it. */
  claimAttempt(runId: string, attempt: number, owner: string, now: Date): Promise<boolean>;
  /** Updates a run while `attempt` still owns it; false when another attempt took it over. */
  updateRun(
    runId: string,
    attempt: number,
    patch: Partial<Pick<PlanRun, 'attempt' | 'owner' | 'leaseUntil' | 'status' | 'finishedAt' | 'postsCreated' | 'ideasCreated' | 'itemsFailed' | 'error' | 'imageWeekRunIds'>>,
  ): Promise<boolean>;

  runItems(runId: string, channelIndex: number): Promise<RunItem[]>;
  /** Records an item (body before its post is created, or its failure); false when it exists. */
  insertItem(item: RunItem): Promise<boolean>;
  updateItem(runId: string, channelIndex: number, n: number, patch: { postId?: number; error?: string }): Promise<void>;
  /** Posts created, items failed, and the Quote Week runs started. */
  countItems(runId: string): Promise<{ created: number; failed: number; imageWeekRunIds: number[] }>;
}

export interface Clock {
  now(): Date;
}

export interface PlansDeps {
  store: PlansStore;
  ideas: IdeasStore;
  accounts: AccountsPort;
  posts: PostsPort;
  writer: PostWriter;
  carousels: CarouselMaker;
  quoteWeek: QuoteWeekPort;
  clock: Clock;
  newId(): string;
  /** Names this process in run claims. */
  instanceId: string;
  /** How long a run's owner holds it without renewing; a dead owner's run is taken over after that. */
  leaseMs: number;
}
