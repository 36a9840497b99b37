import { SiteRulesServiceClient, type SiteRule } from '@spa/contracts/accounts/v1/site_rules';
import { env, loadConfig, z } from '@spa/config';
import { createClient, type PromiseClient } from '@spa/grpc';

/** spa-admin site rule commands: the dashboard's site rules, over gRPC to the accounts service. */

type Flags = Record<string, string | boolean | undefined>;
type SiteRules = PromiseClient<SiteRulesServiceClient>;

/** Flags the site rule commands add (--platform is shared with account connect). */
export const SITE_FLAGS = ['site', 'rule', 'schedule-mode', 'trigger', 'cms'];

export const SITE_USAGE = `  site rule add --site S --platform P [--schedule-mode draft|scheduled] [--trigger publish]
  site rule list --site S
  site rule enable|disable|remove --rule R`;

function usage(message: string): Error {
  return Object.assign(new TypeError(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
}
function id(flags: Flags, name: string): number {
  const v = flags[name];
  if (typeof v !== 'string' || !/^\d+$/.test(v)) throw usage(`--${name} must be a positive integer`);
  return Number(v);
}
function optional(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

const ruleJson = (r: SiteRule | undefined) =>
  r && { rule_id: r.id, site_id: r.siteId, platform: r.platform, trigger: r.trigger, schedule_mode: r.scheduleMode, enabled: r.enabled, created_at: r.createdAt };

async function withRules<T>(call: (rules: SiteRules) => Promise<T>): Promise<T> {
  const config = loadConfig(z.object({ ACCOUNTS_ADDR: env.address('127.0.0.1:50051') }));
  const client = createClient(SiteRulesServiceClient, config.ACCOUNTS_ADDR, { deadlineMs: 10_000 });
  try {
    return await call(client);
  } finally {
    client.close();
  }
}

// workspaceId 0: the operator addresses sites and rules by id, whatever their workspace.
export const SITE_COMMANDS: Record<string, (accounts: unknown, flags: Flags) => Promise<unknown>> = {
  'site rule add': (_, f) => {
    const platform = optional(f, 'platform');
    if (!platform) throw usage('--platform is required');
    return withRules(async (r) =>
      ruleJson((await r.createSiteRule({ workspaceId: 0, siteId: id(f, 'site'), platform, scheduleMode: optional(f, 'schedule-mode'), trigger: optional(f, 'trigger') })).rule),
    );
  },
  'site rule list': (_, f) => withRules(async (r) => ({ rules: (await r.listSiteRules({ workspaceId: 0, siteId: id(f, 'site') })).rules.map(ruleJson) })),
  'site rule enable': (_, f) => withRules(async (r) => ruleJson((await r.setSiteRuleEnabled({ workspaceId: 0, ruleId: id(f, 'rule'), enabled: true })).rule)),
  'site rule disable': (_, f) => withRules(async (r) => ruleJson((await r.setSiteRuleEnabled({ workspaceId: 0, ruleId: id(f, 'rule'), enabled: false })).rule)),
  'site rule remove': (_, f) => withRules(async (r) => ({ rule_id: (await r.deleteSiteRule({ workspaceId: 0, ruleId: id(f, 'rule') })).ruleId, removed: true })),
};
