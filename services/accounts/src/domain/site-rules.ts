import { invalidParameters, notFound } from '@spa/errors';
import { CAPABILITIES } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';

/** When a rule fires: `publish` (the site pushes a published article) is the one trigger today. */
export const SITE_RULE_TRIGGERS = ['publish'] as const;
/** What a rule makes: a draft, or a post put into the next free slot of the platform's account. */
export const SITE_RULE_SCHEDULE_MODES = ['draft', 'scheduled'] as const;

export interface SiteRule {
  id: number;
  workspaceId: number;
  siteId: number;
  platform: Platform;
  trigger: (typeof SITE_RULE_TRIGGERS)[number];
  scheduleMode: (typeof SITE_RULE_SCHEDULE_MODES)[number];
  enabled: boolean;
  createdAt: Date;
}

/** Storage of site rules (its own collection; the site itself stays in the accounts store). */
export interface SiteRulesStore {
  nextRuleId(): Promise<number>;
  /** The workspace of a site, null when there is no such site. */
  siteWorkspace(siteId: number): Promise<number | null>;
  insertRule(rule: SiteRule): Promise<void>;
  listRules(workspaceId: number, siteId: number): Promise<SiteRule[]>;
  getRule(ruleId: number): Promise<SiteRule | null>;
  setEnabled(rule: SiteRule, enabled: boolean): Promise<SiteRule>;
  deleteRule(rule: SiteRule): Promise<void>;
}

export interface SiteRulesDeps {
  siteRules: SiteRulesStore;
  clock: { now(): Date };
}

/** The site's workspace; `workspaceId` 0 (the operator's CLI) accepts any, otherwise it must match (404 if not). */
async function siteOwner(deps: SiteRulesDeps, workspaceId: number, siteId: number): Promise<number> {
  const owner = await deps.siteRules.siteWorkspace(siteId);
  if (owner === null || (workspaceId !== 0 && owner !== workspaceId)) throw notFound(`Site ${siteId}`);
  return owner;
}

async function ownedRule(deps: SiteRulesDeps, workspaceId: number, ruleId: number): Promise<SiteRule> {
  const rule = await deps.siteRules.getRule(ruleId);
  if (!rule || (workspaceId !== 0 && rule.workspaceId !== workspaceId)) throw notFound(`Site rule ${ruleId}`);
  return rule;
}

export async function createSiteRule(
  deps: SiteRulesDeps,
  input: { workspaceId: number; siteId: number; platform: string; trigger?: string | undefined; scheduleMode?: string | undefined },
): Promise<SiteRule> {
  const trigger = input.trigger ?? 'publish';
  const scheduleMode = input.scheduleMode ?? 'draft';
  const problems: string[] = [];
  if (!(PLATFORMS as readonly string[]).includes(input.platform)) problems.push(`platform must be one of ${PLATFORMS.join(', ')}`);
  // A pushed article is text and a link (its image is never fetched): platforms that need media cannot take it.
  else if (CAPABILITIES[input.platform as Platform].media_required) problems.push(`platform ${input.platform} needs an image or video on every post, which a pushed article does not bring`);
  if (!(SITE_RULE_TRIGGERS as readonly string[]).includes(trigger)) problems.push(`trigger must be one of ${SITE_RULE_TRIGGERS.join(', ')}`);
  if (!(SITE_RULE_SCHEDULE_MODES as readonly string[]).includes(scheduleMode)) problems.push(`schedule_mode must be one of ${SITE_RULE_SCHEDULE_MODES.join(', ')}`);
  if (problems.length) throw invalidParameters(problems);
  const workspaceId = await siteOwner(deps, input.workspaceId, input.siteId);
  const rule: SiteRule = {
    id: await deps.siteRules.nextRuleId(),
    workspaceId,
    siteId: input.siteId,
    platform: input.platform as Platform,
    trigger: trigger as SiteRule['trigger'],
    scheduleMode: scheduleMode as SiteRule['scheduleMode'],
    enabled: true,
    createdAt: deps.clock.now(),
  };
  await deps.siteRules.insertRule(rule);
  return rule;
}

export async function listSiteRules(deps: SiteRulesDeps, workspaceId: number, siteId: number): Promise<SiteRule[]> {
  const owner = await siteOwner(deps, workspaceId, siteId);
  return deps.siteRules.listRules(owner, siteId);
}

export async function setSiteRuleEnabled(deps: SiteRulesDeps, workspaceId: number, ruleId: number, enabled: boolean): Promise<SiteRule> {
  const rule = await ownedRule(deps, workspaceId, ruleId);
  return rule.enabled === enabled ? rule : deps.siteRules.setEnabled(rule, enabled);
}

export async function deleteSiteRule(deps: SiteRulesDeps, workspaceId: number, ruleId: number): Promise<void> {
  await deps.siteRules.deleteRule(await ownedRule(deps, workspaceId, ruleId));
}
