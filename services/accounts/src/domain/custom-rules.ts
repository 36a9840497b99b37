import { invalidParameters, notFound } from '@spa/errors';
import { CUSTOM_RULE_LIMITS, CUSTOM_RULE_SCOPES, type CustomRuleScope } from '@spa/vocabulary';
import type { CustomRule, CustomRulePatch } from './model.js';
import type { AccountsDeps } from './ports.js';
import { getWorkspace } from './workspaces.js';

const { maxTitle: MAX_TITLE_LENGTH, maxContent: MAX_CONTENT_LENGTH, perWorkspace: MAX_CUSTOM_RULES } = CUSTOM_RULE_LIMITS;

export interface CustomRuleInput {
  title?: string | undefined;
  content?: string | undefined;
  active?: boolean | undefined;
  scope?: string | undefined;
}

function textProblem(field: string, value: string, max: number): string | null {
  const length = value.trim().length;
  return length >= 1 && length <= max ? null : `${field}: must be 1 to ${max} characters (got ${length})`;
}

/** Checks the present fields, naming every bad one at once; returns them trimmed. */
function checked(input: CustomRuleInput): CustomRulePatch {
  const problems = [
    input.title === undefined ? null : textProblem('title', input.title, MAX_TITLE_LENGTH),
    input.content === undefined ? null : textProblem('content', input.content, MAX_CONTENT_LENGTH),
    input.scope === undefined || (CUSTOM_RULE_SCOPES as readonly string[]).includes(input.scope) ? null : `scope: must be one of ${CUSTOM_RULE_SCOPES.join(', ')} (got ${JSON.stringify(input.scope)})`,
  ].filter((p): p is string => p !== null);
  if (problems.length) throw invalidParameters(problems);
  return {
    ...(input.title !== undefined ? { title: input.title.trim() } : {}),
    ...(input.content !== undefined ? { content: input.content.trim() } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.scope !== undefined ? { scope: input.scope as CustomRuleScope } : {}),
  };
}

/** The workspace's rules by id; `activeOnly` gives what every generation applies. */
export function listCustomRules(deps: AccountsDeps, workspaceId: number, activeOnly = false): Promise<CustomRule[]> {
  return deps.customRules.list(workspaceId, activeOnly ? { active: true } : {});
}

/** The rule, or NOT_FOUND (also for another workspace's rule). */
export async function getCustomRule(deps: AccountsDeps, workspaceId: number, id: number): Promise<CustomRule> {
  const rule = await deps.customRules.get(workspaceId, id);
  if (!rule) throw notFound(`Custom rule ${id}`);
  return rule;
}

/**
 * Creates a rule (active and scope `all` unless given). A workspace holds at most CUSTOM_RULE_LIMITS.perWorkspace
 * rules: each is sent with every generation, so the list stays small.
 */
export async function createCustomRule(deps: AccountsDeps, workspaceId: number, input: CustomRuleInput): Promise<CustomRule> {
  await getWorkspace(deps, workspaceId);
  const fields = checked({ ...input, title: input.title ?? '', content: input.content ?? '' });
  const now = deps.clock.now();
  const rule: CustomRule = {
    id: await deps.ids.next('custom_rules'),
    workspaceId,
    title: fields.title ?? '',
    content: fields.content ?? '',
    active: fields.active ?? true,
    scope: fields.scope ?? 'all',
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.customRules.insert(rule, MAX_CUSTOM_RULES))) {
    throw invalidParameters([`custom_rule: a workspace can hold at most ${MAX_CUSTOM_RULES} custom rules; delete or edit one instead`]);
  }
  return rule;
}

/** Changes the fields given (at least one). */
export async function updateCustomRule(deps: AccountsDeps, workspaceId: number, id: number, input: CustomRuleInput): Promise<CustomRule> {
  const patch = checked(input);
  if (!Object.keys(patch).length) throw invalidParameters(['custom_rule: give at least one of title, content, active, scope']);
  const updated = await deps.customRules.change(workspaceId, id, () => patch, deps.clock.now());
  if (!updated) throw notFound(`Custom rule ${id}`);
  return updated;
}

/** Deletes the rule and answers it as it was. */
export async function deleteCustomRule(deps: AccountsDeps, workspaceId: number, id: number): Promise<CustomRule> {
  const deleted = await deps.customRules.delete(workspaceId, id);
  if (!deleted) throw notFound(`Custom rule ${id}`);
  return deleted;
}

/** Flips `active`; exact when toggles race (two toggles leave the rule as it was). */
export async function toggleCustomRule(deps: AccountsDeps, workspaceId: number, id: number): Promise<CustomRule> {
  const toggled = await deps.customRules.change(workspaceId, id, (current) => ({ active: !current.active }), deps.clock.now());
  if (!toggled) throw notFound(`Custom rule ${id}`);
  return toggled;
}
