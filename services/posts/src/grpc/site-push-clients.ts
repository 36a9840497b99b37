import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { SiteRulesServiceClient } from '@spa/contracts/accounts/v1/site_rules';
import { GenerationServiceClient } from '@spa/contracts/generation/v1/generation';
import { createClient } from '@spa/grpc';
import type { Platform } from '@spa/vocabulary';
import type { SiteRuleView, SitesPort, WriterPort } from '../domain/site-push/ports.js';

/** The site, its rules and the workspace's connected accounts, from the accounts service. */
export function sitesPort(address: string): SitesPort & { close(): void } {
  const accounts = createClient(AccountsServiceClient, address);
  const rules = createClient(SiteRulesServiceClient, address);
  return {
    async site(workspaceId, siteId) {
      const { connection } = await accounts.getSiteStatus({ workspaceId, siteId });
      return { name: connection?.name ?? '', url: connection?.siteUrl ?? '', cms: connection?.cms ?? '' };
    },
    async rules(workspaceId, siteId) {
      const res = await rules.listSiteRules({ workspaceId, siteId });
      return res.rules.map((r) => ({ id: r.id, platform: r.platform as Platform, trigger: r.trigger, scheduleMode: r.scheduleMode as SiteRuleView['scheduleMode'], enabled: r.enabled }));
    },
    async connectedAccounts(workspaceId) {
      const { socialAccounts } = await accounts.listSocialAccounts({ workspaceId, ids: [] });
      return socialAccounts.filter((a) => !a.disconnected).map((a) => ({ id: a.id, platform: a.platform as Platform }));
    },
    close: () => {
      accounts.close();
      rules.close();
    },
  };
}

/** The generation service writing one post (its daily quota and the workspace's voice apply). */
export function writerPort(address: string, deadlineMs: number): WriterPort & { close(): void } {
  const generation = createClient(GenerationServiceClient, address, { deadlineMs });
  return {
    async write(workspaceId, input) {
      const { body } = await generation.generate({ workspaceId, topic: input.topic, platform: input.platform, angle: input.angle });
      return body;
    },
    close: () => generation.close(),
  };
}
