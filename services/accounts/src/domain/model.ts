import type { CustomRuleScope, DisconnectReason, Platform, PublishErrorClass, RefreshOutcome, Scope, SubscriptionStatus, Tier } from '@spa/vocabulary';

export interface Workspace {
  id: number;
  name: string;
  tier: Tier;
  subscriptionStatus: SubscriptionStatus;
  reviewRequired: boolean;
  ownerUserId: number;
  createdAt: Date;
  /** Set by the operator (billing); when absent the period is derived from `createdAt` (monthly). */
  currentPeriodEnd?: Date | undefined;
  cancelAtPeriodEnd: boolean;
}

export interface User {
  id: number;
  email: string;
  createdAt: Date;
}

export interface ApiKey {
  id: number;
  workspaceId: number;
  userId: number;
  /** SHA-256 of the secret; the secret itself is never stored. */
  hash: string;
  scopes: Scope[];
  createdAt: Date;
  revokedAt?: Date | undefined;
  /** The first characters of the secret, shown by the dashboard to tell keys apart (absent on older keys). */
  prefix?: string | undefined;
}

export interface Site {
  id: number;
  workspaceId: number;
  name: string;
  url: string;
  cms: string;
  tokenHash: string;
  createdAt: Date;
  lastPushAt?: Date | undefined;
  unmatchedPushes: number;
}

export interface SocialAccount {
  id: number;
  workspaceId: number;
  platform: Platform;
  username: string;
  sandbox: boolean;
  disconnected: boolean;
  createdAt: Date;
  /** The platform credentials, sealed (AES-256-GCM); opened only for the publisher. */
  sealedCredentials?: string | undefined;
  /** From the platform's identity endpoint when connected for real (OAuth). */
  displayName?: string | undefined;
  avatarUrl?: string | undefined;
  connectedAt?: Date | undefined;
  tokenExpiresAt?: Date | undefined;
  lastRefreshAt?: Date | undefined;
  /** Why it is disconnected and what to do (empty while connected). */
  disconnectedReason?: string | undefined;
  /** Why it is disconnected, as a class (`invalid_grant`: the platform refused to renew it); absent while connected. */
  disconnectCause?: DisconnectCause | undefined;
  /** Its token can be renewed without the user (a refresh token, a Graph exchange, stored credentials); absent: not known yet. */
  refreshable?: boolean | undefined;
  /** The last refresh tried (by the job or after a refused publish), how it went, and the error when it did not. */
  lastRefreshTryAt?: Date | undefined;
  lastRefreshOutcome?: RefreshOutcome | undefined;
  lastRefreshError?: string | undefined;
  /** The class of the last failed publish to it, and when. */
  lastPublishErrorClass?: PublishErrorClass | undefined;
  lastPublishErrorAt?: Date | undefined;
  /** The token expiry `account.expiring` was sent for (once per expiry). */
  expiringWarnedFor?: Date | undefined;
}

/** Why an account is disconnected: the public reasons, or the platform's refusal to renew it (health `reauth_required`). */
export type DisconnectCause = DisconnectReason | 'invalid_grant';

export type CredentialKind = 'api_key' | 'site_token';

/** Who a bearer token speaks for. */
export interface Principal {
  kind: CredentialKind;
  workspaceId: number;
  userId: number;
  keyId: number;
  siteId: number;
  scopes: Scope[];
  tier: Tier;
  subscriptionStatus: SubscriptionStatus;
}

export interface PostingSlot {
  id: number;
  /** 0 = Sunday … 6 = Saturday, local to the schedule's time zone. */
  dayOfWeek: number;
  /** "HH:MM", local. */
  timeOfDay: string;
  enabled: boolean;
  source: string;
}

export interface PostingSchedule {
  id: number;
  workspaceId: number;
  socialAccountId: number;
  timezone: string;
  maxPostsPerDay: number;
  paused: boolean;
  postingSlots: PostingSlot[];
  updatedAt: Date;
}

export interface EmailNotifications {
  postFailure: boolean;
  weeklyBriefing: boolean;
  productTips: boolean;
  reEngagement: boolean;
}

/** A workspace's preferences, every field filled in (stored values over the defaults). */
export interface Preferences {
  tone: string;
  includeEmoji: boolean;
  structure: string;
  /** Free-text guidance for every generation. */
  customRules: string;
  timezone: string;
  usePostMetricsForAi: boolean;
  theme: string;
  /** '' = the generation service's default model. */
  aiModel: string;
  emailNotifications: EmailNotifications;
  /** URLs in posts become Dub short links at publish time. */
  linkShorteningEnabled: boolean;
  /** The workspace stored a Dub API key of its own (the key is write-only: never answered). */
  dubApiKeySet: boolean;
  updatedAt: Date;
}

type PreferenceFields = Partial<Omit<Preferences, 'emailNotifications' | 'updatedAt' | 'dubApiKeySet'>> & {
  emailNotifications?: Partial<EmailNotifications> | undefined;
};

/** The fields a merge changes; absent fields keep their value. */
export type PreferencesPatch = PreferenceFields & {
  /** The workspace's own Dub API key in plain text; '' removes it. */
  dubApiKey?: string | undefined;
};

/** What the store holds for a workspace: only the fields ever set. */
export type StoredPreferences = PreferenceFields & {
  /** The workspace's Dub API key sealed with the secret box (as platform credentials are); '' when removed. */
  dubApiKeySealed?: string | undefined;
  updatedAt: Date;
};

export interface CustomRule {
  id: number;
  workspaceId: number;
  title: string;
  content: string;
  active: boolean;
  scope: CustomRuleScope;
  createdAt: Date;
  updatedAt: Date;
}

export type CustomRulePatch = Partial<Pick<CustomRule, 'title' | 'content' | 'active' | 'scope'>>;

/** The workspace's subscription as billing shows it. */
export interface Subscription {
  id: number;
  tier: Tier;
  status: SubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  maxScheduleDays: number;
}
