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
