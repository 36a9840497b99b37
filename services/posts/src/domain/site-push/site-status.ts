import type { SitePushDeps, SitePushRecord, SiteRuleView, SiteView } from './ports.js';

export const RECENT_PUSHES = 10;

export interface SiteStatus {
  site: SiteView;
  lastPushAt: Date | undefined;
  unmatchedPushes: number;
  rules: SiteRuleView[];
  recent: SitePushRecord[];
}

/** The connection status a site's token reads: the site, its rules, its 10 latest pushes. */
export async function siteStatus(deps: SitePushDeps, workspaceId: number, siteId: number): Promise<SiteStatus> {
  const site = await deps.sites.site(workspaceId, siteId);
  const [rules, recent, unmatchedPushes] = await Promise.all([
    deps.sites.rules(workspaceId, siteId),
    deps.sitePushes.recent(workspaceId, siteId, RECENT_PUSHES),
    deps.sitePushes.unmatchedCount(workspaceId, siteId),
  ]);
  return { site, lastPushAt: recent[0]?.lastPushedAt, unmatchedPushes, rules, recent };
}
