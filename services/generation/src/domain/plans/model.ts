import type { Platform } from '@spa/vocabulary';

/** At most this many content plans per user (the contract's limit). */
export const MAX_PLANS_PER_USER = 10;
export const MAX_CHANNELS_PER_PLAN = 20;
export const MAX_ANGLES_PER_CHANNEL = 10;
export const MAX_POSTS_PER_DAY = 10;

/** Lowercase English day names; index = schedule_day (0 = Sunday, as in posting slots). */
export const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type DayName = (typeof DAY_NAMES)[number];

/** How a run stores the posts it writes: drafts, or scheduled into each account's next free posting slots. */
export const SCHEDULE_MODES = ['draft', 'scheduled'] as const;
export type ScheduleMode = (typeof SCHEDULE_MODES)[number];

/**
 * What a channel produces on each run: `post` = text posts (ideas for media-only platforms; every
 * `carousel_every_n`-th post of a LinkedIn channel a carousel); `quote_card` (Instagram, Pinterest) = a Quote Week
 * run for the channel's account, plus image ideas for its angles.
 */
export const CHANNEL_FORMATS = ['post', 'quote_card'] as const;
export type ChannelFormat = (typeof CHANNEL_FORMATS)[number];
/** The platforms Quote Week renders cards for: a quote_card channel must be one of them. */
export const QUOTE_CARD_PLATFORMS = ['instagram', 'pinterest'] as const;
/** The platform whose posts can be carousels (LinkedIn document posts). */
export const CAROUSEL_PLATFORM = 'linkedin';

export interface Channel {
  socialAccountId: number;
  platform: Platform;
  format: ChannelFormat;
  boardId?: string | undefined;
  angles: string[];
  postsPerDay: number;
  quoteTopic?: string | undefined;
  watermarkEnabled: boolean;
  watermarkText?: string | undefined;
  watermarkEveryN?: number | undefined;
  carouselEveryN?: number | undefined;
  active: boolean;
}

export interface ContentPlan {
  id: number;
  workspaceId: number;
  /** The user the plan counts against (the API key's creator). */
  ownerUserId: number;
  /** 1..10: the unique (owner_user_id, slot) index enforces the per-user limit. */
  slot: number;
  name: string;
  active: boolean;
  useSources: boolean;
  platformConfigs: Record<string, unknown>;
  channels: Channel[];
  contentStrategy?: string | undefined;
  scheduleDay: number;
  scheduleTime: string;
  scheduleMode: ScheduleMode;
  /** Runs write dry-run posts and start dry-run Quote Week runs. */
  dryRun: boolean;
  /** The workspace time zone next_run_at was computed in. */
  timezone: string;
  lastRunAt?: Date | undefined;
  /** Absent while the plan is inactive. */
  nextRunAt?: Date | undefined;
  createdAt: Date;
  updatedAt: Date;
}

/** A channel as given by a client; absent fields take defaults (create) or are required by validation. */
export interface ChannelInput {
  socialAccountId: number;
  platform?: string | undefined;
  format?: string | undefined;
  boardId?: string | undefined;
  angles: string[];
  postsPerDay?: number | undefined;
  quoteTopic?: string | undefined;
  watermarkEnabled?: boolean | undefined;
  watermarkText?: string | undefined;
  watermarkEveryN?: number | undefined;
  carouselEveryN?: number | undefined;
  active?: boolean | undefined;
}

/** The client-settable fields of a plan; on update only the present ones change (channels replace the list). */
export interface PlanFields {
  name?: string | undefined;
  active?: boolean | undefined;
  useSources?: boolean | undefined;
  platformConfigs?: unknown;
  channels?: ChannelInput[] | undefined;
  contentStrategy?: string | undefined;
  scheduleDay?: number | undefined;
  scheduleTime?: string | undefined;
  scheduleMode?: string | undefined;
  dryRun?: boolean | undefined;
}

export type RunTrigger = 'scheduled' | 'manual';
export type RunStatus = 'running' | 'completed' | 'failed';

/** What a run works from: the plan as it was when the run was claimed (later edits do not change a run). */
export interface PlanSnapshot {
  planId: number;
  name: string;
  topic: string;
  contentStrategy?: string | undefined;
  scheduleMode: ScheduleMode;
  channels: Channel[];
  /** The plan's dry_run, or the manual run's override (absent in runs claimed before dry runs existed: false). */
  dryRun?: boolean | undefined;
  /** The plan's platform_configs (a Pinterest Quote Week run takes its `link`). */
  platformConfigs?: Record<string, unknown> | undefined;
}

export interface PlanRun {
  /** `<plan id>:<due ISO>` (scheduled) or `<plan id>:manual:<uuid>`: inserting it claims the run. */
  id: string;
  planId: number;
  workspaceId: number;
  trigger: RunTrigger;
  dueAt?: Date | undefined;
  /** The workspace-local date the run writes for (YYYY-MM-DD). */
  localDate: string;
  snapshot: PlanSnapshot;
  status: RunStatus;
  /** The attempt that owns the run now (1 = the claimer; +1 on each takeover of a dead owner). */
  attempt: number;
  owner: string;
  leaseUntil: Date;
  startedAt: Date;
  finishedAt?: Date | undefined;
  postsCreated: number;
  ideasCreated: number;
  itemsFailed: number;
  error?: string | undefined;
  /** The Quote Week runs this run started (set when it finishes). */
  imageWeekRunIds?: number[] | undefined;
}

/** A carousel's PDF document, stored through media before the post that carries it is created. */
export interface CarouselDocument {
  r2Key: string;
  url: string;
  pageCount: number;
}

/**
 * One post a run writes: recorded with its body before the post is created, then given the post id. A quote_card
 * channel has one item instead: the Quote Week run it started (or why it could not).
 */
export interface RunItem {
  runId: string;
  channelIndex: number;
  n: number;
  body?: string | undefined;
  /** Set when the post is a carousel (body is its caption). */
  carousel?: CarouselDocument | undefined;
  postId?: number | undefined;
  /** A quote_card channel's item (n = 0): the Quote Week run it started. */
  imageWeekRunId?: number | undefined;
  error?: string | undefined;
  createdAt: Date;
}
