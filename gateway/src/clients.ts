import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { McpAuthorizationServiceClient } from '@spa/contracts/accounts/v1/mcp_authorization';
import { PlatformStylesServiceClient } from '@spa/contracts/accounts/v1/platform_styles';
import { AnalyticsServiceClient } from '@spa/contracts/analytics/v1/analytics';
import { ContentPlansServiceClient } from '@spa/contracts/generation/v1/content_plans';
import { GenerationServiceClient } from '@spa/contracts/generation/v1/generation';
import { SettingsServiceClient } from '@spa/contracts/generation/v1/settings';
import { LinkedInAssetsServiceClient } from '@spa/contracts/media/v1/linkedin_assets';
import { MediaServiceClient } from '@spa/contracts/media/v1/media';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { SitePushesServiceClient } from '@spa/contracts/posts/v1/site_pushes';
import { SiteRulesServiceClient } from '@spa/contracts/accounts/v1/site_rules';
import { PublisherServiceClient } from '@spa/contracts/publisher/v1/publisher';
import { ImageWeekServiceClient } from '@spa/contracts/image_week/v1/image_week';
import { WebhooksServiceClient } from '@spa/contracts/webhooks/v1/webhooks';
import { createClient, createStreamingClient, type PromiseClient, type StreamingClient } from '@spa/grpc';
import { guardedGet, type GuardedResponse } from '@spa/url-guard';

/** One long-lived gRPC client per backend service, shared by every request. */
export interface Clients {
  accounts: PromiseClient<AccountsServiceClient>;
  /** OAuth clients, grants and tokens of MCP clients (kept by accounts). */
  mcpAuthorization: PromiseClient<McpAuthorizationServiceClient>;
  platformStyles: PromiseClient<PlatformStylesServiceClient>;
  posts: PromiseClient<PostsServiceClient>;
  sitePushes: PromiseClient<SitePushesServiceClient>;
  siteRules: PromiseClient<SiteRulesServiceClient>;
  media: StreamingClient<MediaServiceClient>;
  linkedInAssets: StreamingClient<LinkedInAssetsServiceClient>;
  contentPlans: PromiseClient<ContentPlansServiceClient>;
  settings: PromiseClient<SettingsServiceClient>;
  generation: PromiseClient<GenerationServiceClient>;
  publisher: PromiseClient<PublisherServiceClient>;
  imageWeek: PromiseClient<ImageWeekServiceClient>;
  analytics: PromiseClient<AnalyticsServiceClient>;
  /** The webhooks service, as the owner of the event log (GET /events). */
  events: PromiseClient<WebhooksServiceClient>;
  /** Files on the web at URLs users give (media from a URL): guarded GETs (https, no private address, bounded). */
  web: { get(url: string, maxBytes: number): Promise<GuardedResponse> };
}

export function createClients(config: {
  ACCOUNTS_ADDR: string;
  POSTS_ADDR: string;
  GENERATION_ADDR: string;
  GRPC_DEADLINE_MS: number;
  GENERATION_DEADLINE_MS: number;
  MEDIA_ADDR: string;
  GRPC_UPLOAD_DEADLINE_MS: number;
  PUBLISHER_ADDR: string;
  IMAGE_WEEK_ADDR: string;
  ANALYTICS_ADDR: string;
  WEBHOOKS_ADDR: string;
  WEB_FETCH_TIMEOUT_MS: number;
  WEB_FETCH_ALLOW_PRIVATE: boolean;
}): Clients {
  const defaults = { deadlineMs: config.GRPC_DEADLINE_MS };
  return {
    accounts: createClient(AccountsServiceClient, config.ACCOUNTS_ADDR, defaults),
    mcpAuthorization: createClient(McpAuthorizationServiceClient, config.ACCOUNTS_ADDR, defaults),
    platformStyles: createClient(PlatformStylesServiceClient, config.ACCOUNTS_ADDR, defaults),
    posts: createClient(PostsServiceClient, config.POSTS_ADDR, defaults),
    sitePushes: createClient(SitePushesServiceClient, config.POSTS_ADDR, defaults),
    siteRules: createClient(SiteRulesServiceClient, config.ACCOUNTS_ADDR, defaults),
    media: createStreamingClient(MediaServiceClient, config.MEDIA_ADDR, { ...defaults, streamDeadlineMs: config.GRPC_UPLOAD_DEADLINE_MS }),
    linkedInAssets: createStreamingClient(LinkedInAssetsServiceClient, config.MEDIA_ADDR, { ...defaults, streamDeadlineMs: config.GRPC_UPLOAD_DEADLINE_MS }),
    contentPlans: createClient(ContentPlansServiceClient, config.GENERATION_ADDR, defaults),
    settings: createClient(SettingsServiceClient, config.GENERATION_ADDR, defaults),
    generation: createClient(GenerationServiceClient, config.GENERATION_ADDR, { deadlineMs: config.GENERATION_DEADLINE_MS }),
    publisher: createClient(PublisherServiceClient, config.PUBLISHER_ADDR, defaults),
    imageWeek: createClient(ImageWeekServiceClient, config.IMAGE_WEEK_ADDR, defaults),
    analytics: createClient(AnalyticsServiceClient, config.ANALYTICS_ADDR, defaults),
    events: createClient(WebhooksServiceClient, config.WEBHOOKS_ADDR, defaults),
    web: {
      get: (url, maxBytes) =>
        guardedGet(url, { allowPrivate: config.WEB_FETCH_ALLOW_PRIVATE, timeoutMs: config.WEB_FETCH_TIMEOUT_MS, maxBytes, headers: { 'user-agent': 'SocialPublishingAPI/1 (media from a URL)' } }),
    },
  };
}

export function closeClients(clients: Clients): void {
  clients.accounts.close();
  clients.mcpAuthorization.close();
  clients.platformStyles.close();
  clients.posts.close();
  clients.sitePushes.close();
  clients.siteRules.close();
  clients.media.close();
  clients.linkedInAssets.close();
  clients.contentPlans.close();
  clients.settings.close();
  clients.generation.close();
  clients.publisher.close();
  clients.imageWeek.close();
  clients.events.close();
  clients.analytics.close();
}
