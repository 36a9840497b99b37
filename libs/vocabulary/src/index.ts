export const PLATFORMS = [
  'twitter',
  'linkedin',
  'youtube',
  'instagram',
  'threads',
  'pinterest',
  'tiktok',
  'bluesky',
  'mastodon',
  'facebook',
  'google_business',
  'discord',
  'telegram',
  'tumblr',
  'slack',
] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Every scope an API key can carry (the contract's scope table plus plans:write and content_ideas:read). */
export const SCOPES = [
  'posts:read',
  'posts:write',
  'ai:generate',
  'publish:write',
  'accounts:read',
  'analytics:read',
  'preferences:read',
  'preferences:write',
  'platform_styles:read',
  'platform_styles:write',
  'rules:read',
  'rules:write',
  'schedules:read',
  'schedules:write',
  'plans:read',
  'plans:write',
  'voice:read',
  'communities:read',
  'billing:read',
  'content_ideas:read',
  'image_week:read',
  'image_week:write',
  'events:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const TIERS = ['free', 'starter', 'pro', 'team'] as const;
export type Tier = (typeof TIERS)[number];
export const PAID_TIERS: readonly Tier[] = ['starter', 'pro', 'team'];
export const REVIEW_TIERS: readonly Tier[] = ['pro', 'team'];

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const LIVE_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing'];

export const POST_STATUSES = ['draft', 'pending_review', 'scheduled', 'publishing', 'posted', 'failed', 'partial'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
/** What GET /posts returns without a status filter. */
export const QUEUE_STATUSES: readonly PostStatus[] = ['draft', 'pending_review', 'scheduled', 'publishing'];

/** What became of one target account of a post (`dry_run`: passed every preflight of a dry-run post, never sent). */
export const PLATFORM_STATUSES = ['posted', 'failed', 'dry_run'] as const;
export type PlatformStatus = (typeof PLATFORM_STATUSES)[number];

/** The orders a post list can take, and their directions. */
export const POST_SORTS = ['scheduled_at', 'created_at', 'posted_at', 'id'] as const;
export type PostSort = (typeof POST_SORTS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export const CONTENT_TYPES = ['text', 'image', 'video', 'document', 'poll'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Preference values the API accepts (the contract shows the fields, not their values). */
export const PREFERENCE_TONES = ['professional', 'casual', 'friendly', 'witty', 'bold', 'inspirational', 'educational'] as const;
export type PreferenceTone = (typeof PREFERENCE_TONES)[number];
export const PREFERENCE_STRUCTURES = ['auto', 'short', 'hook_body_cta', 'list', 'story', 'question'] as const;
export type PreferenceStructure = (typeof PREFERENCE_STRUCTURES)[number];
export const THEMES = ['light', 'dark', 'system'] as const;
export const EMAIL_NOTIFICATIONS = ['post_failure', 'weekly_briefing', 'product_tips', 're_engagement'] as const;

/** Where a custom rule applies ("reply" is the value the contract shows). */
export const CUSTOM_RULE_SCOPES = ['all', 'post', 'thread', 'reply', 'carousel'] as const;
export type CustomRuleScope = (typeof CUSTOM_RULE_SCOPES)[number];

/** Daily AI generations per plan (docs/architecture.md, "Plans"). */
export const DAILY_GENERATIONS: Readonly<Record<Tier, number>> = { free: 0, starter: 100, pro: 500, team: 2000 };

/** How many days ahead posts may be scheduled, per plan (the subscription's `max_schedule_days`). */
export const MAX_SCHEDULE_DAYS: Readonly<Record<Tier, number>> = { free: 0, starter: 30, pro: 90, team: 365 };

/** Bounds of a custom rule (characters, after trimming) and how many rules a workspace may hold. */
export const CUSTOM_RULE_LIMITS = { maxTitle: 120, maxContent: 2000, perWorkspace: 50 } as const;

/** The CMSes a connected site may name at registration (what its pushes come from). */
export const SITE_CMSES = ['wordpress', 'ghost', 'webflow', 'shopify', 'squarespace', 'wix', 'custom'] as const;
export type SiteCms = (typeof SITE_CMSES)[number];

/** The contract's events: a post reached a terminal state. What a webhook receives unless it chooses otherwise. */
export const TERMINAL_EVENT_KINDS = ['post.published', 'post.failed', 'post.partial_failure'] as const;
/** Lifecycle events a webhook can opt into, beside the terminal ones (the event log carries every kind). */
export const LIFECYCLE_EVENT_KINDS = [
  'post.created',
  'post.updated',
  'post.scheduled',
  'post.deleted',
  'post.approved',
  'post.rejected',
  'account.connected',
  'account.disconnected',
  'account.reauth_required',
  'account.expiring',
  'image_week_run.completed',
  'image_week_run.failed',
  'site_push.consumed',
] as const;
/** Every event of a workspace: in its event log (GET /events) and open to its webhooks. */
export const EVENT_KINDS = [...TERMINAL_EVENT_KINDS, ...LIFECYCLE_EVENT_KINDS] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export type TerminalEventKind = (typeof TERMINAL_EVENT_KINDS)[number];

/**
 * A social account's connection health: `ok`; `expiring` (its token cannot be refreshed and expires within
 * 7 days: reconnect before then); `reauth_required` (the platform refused to renew the authorization:
 * reconnect); `disconnected` (revoked, expired, a platform checkpoint, or disconnected by the user).
 */
export const ACCOUNT_HEALTHS = ['ok', 'expiring', 'reauth_required', 'disconnected'] as const;
export type AccountHealth = (typeof ACCOUNT_HEALTHS)[number];
/** Why an account is disconnected. */
export const DISCONNECT_REASONS = ['revoked', 'expired', 'checkpoint', 'by_user'] as const;
export type DisconnectReason = (typeof DISCONNECT_REASONS)[number];
/** How an account's last token refresh went: renewed; failed for a passing reason (retried); refused by the platform. */
export const REFRESH_OUTCOMES = ['ok', 'failed', 'refused'] as const;
export type RefreshOutcome = (typeof REFRESH_OUTCOMES)[number];
/** What the last failed publish to an account failed of: its connection (expired, revoked) or something else. */
export const PUBLISH_ERROR_CLASSES = ['expired', 'revoked', 'rejected', 'rate_limited', 'transient'] as const;
export type PublishErrorClass = (typeof PUBLISH_ERROR_CLASSES)[number];
/** How far ahead of its expiry an account whose token cannot be refreshed is `expiring` (and `account.expiring` is sent). */
export const EXPIRING_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;
