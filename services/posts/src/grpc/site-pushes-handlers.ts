import { SitePushesServiceService, type SitePush as SitePushMessage } from '@spa/contracts/posts/v1/site_pushes';
import { bindService, type ServiceBinding } from '@spa/grpc';
import type { DraftClaim, SitePushDeps, SitePushRecord } from '../domain/site-push/ports.js';
import { pushArticle } from '../domain/site-push/push-article.js';
import { siteStatus } from '../domain/site-push/site-status.js';

const pushMessage = (p: SitePushRecord, drafts: DraftClaim[] = [], contentChanged = false): SitePushMessage => ({
  url: p.article.url,
  title: p.article.title,
  firstPushedAt: p.firstPushedAt.toISOString(),
  lastPushedAt: p.lastPushedAt.toISOString(),
  consumedAt: p.consumedHash === p.contentHash ? p.consumedAt?.toISOString() : undefined,
  matchedRules: p.matchedRules,
  drafts: drafts.map((d) => ({ ruleId: d.ruleId, platform: d.platform, postId: d.postId })),
  contentChanged,
});

const optionalDate = (value: string | undefined): Date | undefined => (value ? new Date(value) : undefined);

/** gRPC transport of site pushes (served by the posts process beside PostsService). */
export function sitePushesService(deps: SitePushDeps): ServiceBinding {
  return bindService('posts.v1.SitePushesService', SitePushesServiceService, {
    pushArticle: async (req) => {
      const a = req.article;
      const r = await pushArticle(deps, req.workspaceId, req.siteId, {
        url: a?.url ?? '',
        title: a?.title ?? '',
        excerpt: a?.excerpt,
        content: a?.content,
        imageUrl: a?.imageUrl,
        publishedAt: optionalDate(a?.publishedAt),
      });
      return { push: pushMessage(r.push, r.drafts, r.contentChanged), created: r.created };
    },
    getSitePushStatus: async (req) => {
      const s = await siteStatus(deps, req.workspaceId, req.siteId);
      return {
        name: s.site.name,
        siteUrl: s.site.url,
        cms: s.site.cms,
        lastPushAt: s.lastPushAt?.toISOString(),
        unmatchedPushes: s.unmatchedPushes,
        rules: s.rules.map((r) => ({ id: r.id, platform: r.platform, trigger: r.trigger, scheduleMode: r.scheduleMode, enabled: r.enabled })),
        recentPushes: s.recent.map((p) => pushMessage(p)),
      };
    },
  });
}
