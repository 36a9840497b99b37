import type { Platform, Scope, SubscriptionStatus, Tier } from '@spa/vocabulary';

export interface Workspace {
  id: number;
  name: string;
  tier: Tier;
  subscriptionStatus: SubscriptionStatus;
  reviewRequired: boolean;
  ownerUserId: number;
  createdAt: Date;
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
}

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
