import { SiteRulesServiceService, type SiteRule as SiteRuleMessage } from '@spa/contracts/accounts/v1/site_rules';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { createSiteRule, deleteSiteRule, listSiteRules, setSiteRuleEnabled, type SiteRule, type SiteRulesDeps } from '../domain/site-rules.js';

export const siteRuleMessage = (r: SiteRule): SiteRuleMessage => ({
  id: r.id,
  siteId: r.siteId,
  platform: r.platform,
  trigger: r.trigger,
  scheduleMode: r.scheduleMode,
  enabled: r.enabled,
  createdAt: r.createdAt.toISOString(),
});

/** gRPC transport of the site rules (served by the accounts process beside AccountsService). */
export function siteRulesService(deps: SiteRulesDeps): ServiceBinding {
  return bindService('accounts.v1.SiteRulesService', SiteRulesServiceService, {
    createSiteRule: async (req) => ({
      rule: siteRuleMessage(await createSiteRule(deps, { workspaceId: req.workspaceId, siteId: req.siteId, platform: req.platform, trigger: req.trigger, scheduleMode: req.scheduleMode })),
    }),
    listSiteRules: async (req) => ({ rules: (await listSiteRules(deps, req.workspaceId, req.siteId)).map(siteRuleMessage) }),
    setSiteRuleEnabled: async (req) => ({ rule: siteRuleMessage(await setSiteRuleEnabled(deps, req.workspaceId, req.ruleId, req.enabled)) }),
    deleteSiteRule: async (req) => {
      await deleteSiteRule(deps, req.workspaceId, req.ruleId);
      return { ruleId: req.ruleId };
    },
  });
}
