import type { Platform } from '@spa/vocabulary';
import type { SiteRuleView } from './ports.js';

export interface MatchedRule {
  rule: SiteRuleView;
  /** The workspace's connected accounts on the rule's platform: the post's targets. */
  accountIds: number[];
}

/** Enabled `publish` rules whose platform has at least one connected account, oldest rule first. */
export function matchRules(rules: SiteRuleView[], accounts: Array<{ id: number; platform: Platform }>): MatchedRule[] {
  return rules
    .filter((r) => r.enabled && r.trigger === 'publish')
    .map((rule) => ({ rule, accountIds: accounts.filter((a) => a.platform === rule.platform).map((a) => a.id) }))
    .filter((m) => m.accountIds.length > 0);
}
