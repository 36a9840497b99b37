/** Quote Week runs and items as the domain sees them (no transport or database types). */

export const QUOTE_PLATFORMS = ['instagram', 'pinterest'] as const;
export type QuotePlatform = (typeof QUOTE_PLATFORMS)[number];

export const RUN_STATUSES = ['pending', 'completed', 'failed', 'canceled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const ITEM_STATUSES = ['pending', 'generating', 'verifying', 'completed', 'failed', 'canceled'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const TERMINAL_ITEM_STATUSES: readonly ItemStatus[] = ['completed', 'failed', 'canceled'];

export type ScheduleMode = 'draft' | 'scheduled';
export type ShortfallReason = 'quota' | 'no_slots';
export type Aspect = 'portrait' | 'square';

/** One configured platform of a run: the account its cards are for. */
export interface Target {
  platform: QuotePlatform;
  socialAccountId: number;
  /** Pinterest only. */
  boardId?: string | undefined;
  /** Pinterest only: where the pin links to. */
  link?: string | undefined;
  /** Instagram only: portrait (1080x1350, default) or square (1080x1080). */
  aspect?: Aspect | undefined;
  /** The watermark of this account's cards when the run gives no watermark_text: the account's @handle. */
  watermark?: string | undefined;
}

export interface RunSettings {
  topic: string;
  pack?: string | undefined;
  /** The platform_config object as the client gave it (after validation). */
  platformConfig: Record<string, unknown>;
  targets: Target[];
  cutoffDays: number;
  scheduleMode: ScheduleMode;
  watermarkEnabled: boolean;
  watermarkText?: string | undefined;
  watermarkEveryN: number;
  dryRun: boolean;
  contentPlanId?: number | undefined;
}

/** What is stored of a run; its counters and status are derived from its items (see summarize). */
export interface RunRecord extends RunSettings {
  id: number;
  workspaceId: number;
  templateVersion: string;
  /** Set once the items exist (planning done). */
  plannedAt?: Date | undefined;
  shortfallReason?: ShortfallReason | undefined;
  /** Why the whole run failed (planning could not complete). */
  errorMessage?: string | undefined;
  canceledAt?: Date | undefined;
  createdAt: Date;
  updatedAt: Date;
}

export interface ItemImage {
  url: string;
  r2Key: string;
  width: number;
  height: number;
}

export interface ItemRecord {
  id: number;
  runId: number;
  workspaceId: number;
  /** 0-based order within the run (slot order per account). */
  position: number;
  /** Position among the items of the same account: the watermark goes on every n-th card of an account. */
  accountPosition: number;
  platform: QuotePlatform;
  socialAccountId: number;
  status: ItemStatus;
  attemptCount: number;
  /** Counts regenerations: each one is dispatched as a new job. */
  round: number;
  quote?: string | undefined;
  /** The quotes the item had before it was regenerated: its new one differs from each. */
  replacedQuotes?: string[] | undefined;
  template?: string | undefined;
  image?: ItemImage | undefined;
  postId?: number | undefined;
  /** The planned slot (null: no slot, the post is a draft). */
  scheduledAt?: Date | undefined;
  watermarked: boolean;
  lastError?: string | undefined;
  imagesGenerated: number;
  retryCount: number;
  garbleCount: number;
  estCostCents: number;
  finishedAt?: Date | undefined;
  updatedAt: Date;
}

/** A run as answered: the record plus counters and a status true at the moment of reading. */
export interface RunView extends RunRecord {
  status: RunStatus;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  canceledItems: number;
  imagesGenerated: number;
  retryCount: number;
  garbleCount: number;
  estCostCents: number;
  durationMs: number;
  finishedAt?: Date | undefined;
  items?: ItemRecord[] | undefined;
}
