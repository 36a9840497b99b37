import type { Route } from '../routes/route.js';

/** The MCP behaviour hints of a tool (the spec's ToolAnnotations, minus the title). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

interface Naming {
  name: string;
  /** The call reaches, or changes what reaches, a third party: a social platform, an AI provider, a URL on the web. */
  openWorld?: boolean;
  /** A POST that changes or removes what exists (POSTs that only add are not destructive). */
  destructive?: boolean;
  /** A POST whose repetition with the same arguments has no further effect. */
  idempotent?: boolean;
}

/**
 * Each operation's tool name (a verb first, as agents pick tools by name) and the facts about its effects
 * that its method does not tell. An operation missing here still gets a tool, named from its method and path.
 */
const NAMINGS: Record<string, Naming> = {
  'post /posts/generate': { name: 'generate_post', openWorld: true },
  'post /posts/generate_from_idea': { name: 'generate_posts_from_idea', openWorld: true },
  'post /posts/generate_batch': { name: 'generate_post_batch', openWorld: true },
  'post /posts/generate_thread': { name: 'generate_thread', openWorld: true },
  'post /posts/generate_carousel': { name: 'generate_carousel', openWorld: true },
  'get /voice_profile': { name: 'get_voice_profile' },
  'get /posting_schedules': { name: 'list_posting_schedules' },
  'patch /posting_schedules/{id}': { name: 'update_posting_schedule' },
  'get /posts/next_slot': { name: 'get_next_slot' },
  'get /posts': { name: 'list_posts' },
  'post /posts': { name: 'create_post' },
  'get /posts/{id}': { name: 'get_post' },
  // Approving a post whose time has passed hands it to the publisher at once.
  'post /posts/{id}/approve': { name: 'approve_post', destructive: true, openWorld: true },
  'post /posts/{post_id}/publishes': { name: 'publish_post', destructive: true, openWorld: true },
  'post /posts/bulk': { name: 'create_posts_bulk' },
  'patch /posts/{id}': { name: 'update_post' },
  // Deleting a scheduled post cancels what would have been published; the deletion is announced to the workspace's webhooks.
  'delete /posts/{id}': { name: 'delete_post', openWorld: true },
  'post /posts/{id}/reject': { name: 'reject_post', destructive: true },
  'get /platforms': { name: 'list_platforms' },
  'get /social_accounts': { name: 'list_social_accounts' },
  'get /social_accounts/{id}': { name: 'get_social_account' },
  'get /custom_rules': { name: 'list_custom_rules' },
  'get /custom_rules/{id}': { name: 'get_custom_rule' },
  'post /custom_rules': { name: 'create_custom_rule' },
  'patch /custom_rules/{id}': { name: 'update_custom_rule' },
  'delete /custom_rules/{id}': { name: 'delete_custom_rule' },
  'post /custom_rules/{id}/toggle': { name: 'toggle_custom_rule', destructive: true },
  'get /preferences': { name: 'get_preferences' },
  'patch /preferences': { name: 'update_preferences' },
  'get /billing/subscriptions/current': { name: 'get_subscription' },
  'post /content_plans': { name: 'create_content_plan' },
  'get /content_plans': { name: 'list_content_plans' },
  'get /content_plans/{id}': { name: 'get_content_plan' },
  'patch /content_plans/{id}': { name: 'update_content_plan' },
  'delete /content_plans/{id}': { name: 'delete_content_plan' },
  'post /content_plans/{id}/run': { name: 'run_content_plan', openWorld: true },
  'get /content_ideas': { name: 'list_content_ideas' },
  'post /content_ideas/{id}/use': { name: 'use_content_idea', openWorld: true },
  'post /linkedin/image_uploads': { name: 'upload_linkedin_image', openWorld: true },
  'post /linkedin/video_uploads': { name: 'upload_linkedin_video', openWorld: true },
  'post /media/uploads': { name: 'upload_media' },
  'post /media/uploads/from_url': { name: 'upload_media_from_url', openWorld: true },
  'post /facebook/media_uploads': { name: 'upload_facebook_media' },
  'post /instagram/media_uploads': { name: 'upload_instagram_media' },
  'post /discord/media_uploads': { name: 'upload_discord_media' },
  'post /telegram/media_uploads': { name: 'upload_telegram_media' },
  'post /tumblr/media_uploads': { name: 'upload_tumblr_media' },
  'post /slack/media_uploads': { name: 'upload_slack_media' },
  'get /facebook/uploads/presign': { name: 'presign_facebook_video_upload' },
  'delete /tumblr/media_uploads/{r2_key}': { name: 'delete_tumblr_media' },
  'get /tiktok/creator_info': { name: 'get_tiktok_creator_info', openWorld: true },
  'get /pinterest/boards': { name: 'list_pinterest_boards', openWorld: true },
  'get /instagram/audio': { name: 'search_instagram_audio', openWorld: true },
  'get /communities': { name: 'list_communities', openWorld: true },
  'post /image_week_runs': { name: 'start_quote_week', openWorld: true },
  'get /image_week_runs': { name: 'list_quote_week_runs' },
  'get /image_week_runs/{id}': { name: 'get_quote_week_run' },
  'post /image_week_runs/{id}/cancel': { name: 'cancel_quote_week_run', destructive: true, idempotent: true },
  'post /image_week_runs/{image_week_run_id}/items/{id}/regenerate': { name: 'regenerate_quote_week_item', destructive: true, openWorld: true },
  'get /analytics/timeseries': { name: 'get_analytics_timeseries' },
  'get /analytics/rollups': { name: 'get_analytics_rollups' },
  'get /analytics/best_times': { name: 'get_best_times' },
  'get /events': { name: 'list_events' },
  'get /platform_styles': { name: 'list_platform_styles' },
  'get /platform_styles/{platform}': { name: 'get_platform_style' },
  'patch /platform_styles/{platform}': { name: 'update_platform_style' },
  'post /platform_styles/{platform}/reset': { name: 'reset_platform_style', destructive: true, idempotent: true },
};

const keyOf = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/** A name for an operation nobody named: its method and the fixed segments of its path (`post_widgets_frobnicate`). */
const fallbackName = (route: Pick<Route, 'method' | 'path'>): string =>
  `${route.method}_${route.path
    .replace(/\{\w+\}/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;

export const toolNameOf = (route: Pick<Route, 'method' | 'path'>): string => NAMINGS[keyOf(route)]?.name ?? fallbackName(route);

/**
 * The tool's hints: a GET only reads; PATCH, PUT and DELETE change or remove what exists and have the same
 * effect when repeated; a POST adds, unless named above as changing state. Open world as named above.
 */
export function toolHintsOf(route: Pick<Route, 'method' | 'path'>): ToolHints {
  const naming = NAMINGS[keyOf(route)];
  const openWorldHint = naming?.openWorld ?? false;
  if (route.method === 'get') return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint };
  if (route.method === 'post') return { readOnlyHint: false, destructiveHint: naming?.destructive ?? false, idempotentHint: naming?.idempotent ?? false, openWorldHint };
  return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint };
}
