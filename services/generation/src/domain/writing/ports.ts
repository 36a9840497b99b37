import type { PlatformStyle } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';

export type { PostHistory, VoiceSource } from '../voice/ports.js';

/** The daily generation quota (the quota part's DailyQuota): units are posts produced. */
export interface QuotaGate {
  /** Throws AppError DAILY_LIMIT_EXCEEDED (with retryAfter) when the units are not available. */
  consume(workspaceId: number, units: number, idempotencyKey?: string): Promise<void>;
  /** Gives units back after a generation that produced nothing. */
  refund(workspaceId: number, units: number): Promise<void>;
  /** Gives back what a keyed consume took today (its generation produced nothing): a retry with the key is charged again. */
  releaseKey(workspaceId: number, idempotencyKey: string): Promise<void>;
}

/** The workspace's generation preferences (accounts). */
export interface WorkspaceStyle {
  tone: string;
  structure: string;
  includeEmoji: boolean;
  /** The free-text `custom_rules` preference. */
  guidance: string;
  /** Preferred model id; empty for the catalog default. */
  aiModel: string;
}

export interface ActiveRule {
  content: string;
  /** all, post, thread, reply or carousel. */
  scope: string;
}

export interface SocialAccountRef {
  id: number;
  platform: Platform;
  disconnected: boolean;
}

/** What generation reads from accounts. */
export interface WorkspaceSource {
  style(workspaceId: number): Promise<WorkspaceStyle>;
  activeRules(workspaceId: number): Promise<ActiveRule[]>;
  /** The workspace's social accounts, or only `ids` among them when given. */
  socialAccounts(workspaceId: number, ids?: number[]): Promise<SocialAccountRef[]>;
}

/** The workspace's style for one platform (accounts' platform styles; a platform never changed answers its defaults). */
export interface PlatformStyles {
  style(workspaceId: number, platform: Platform): Promise<PlatformStyle>;
}

export interface StoredObject {
  r2Key: string;
  url: string;
  sizeBytes: number;
}

/** The media service's object storage. */
export interface ObjectStore {
  store(object: { workspaceId: number; contentType: string; data: Uint8Array; purpose: string }): Promise<StoredObject>;
}
