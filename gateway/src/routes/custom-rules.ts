import type { CustomRule } from '@spa/contracts/accounts/v1/accounts';
import { CUSTOM_RULE_LIMITS, CUSTOM_RULE_SCOPES } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';
import { dateTime, idParam } from './schemas.js';

const CustomRuleSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    content: z.string().describe('Guidance applied to every generation while the rule is active'),
    active: z.boolean(),
    scope: z.enum(CUSTOM_RULE_SCOPES).describe('Which generations the rule applies to; all = every kind'),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'CustomRule' });

const title = z.string().trim().min(1).max(CUSTOM_RULE_LIMITS.maxTitle).describe(`1–${CUSTOM_RULE_LIMITS.maxTitle} characters, trimmed`);
const content = z.string().trim().min(1).max(CUSTOM_RULE_LIMITS.maxContent).describe(`1–${CUSTOM_RULE_LIMITS.maxContent} characters, trimmed`);
const scope = z.enum(CUSTOM_RULE_SCOPES);

const CreateBody = z
  .object({
    custom_rule: z
      .object({
        title,
        content,
        active: z.boolean().optional().describe('Default true'),
        scope: scope.optional().describe('Default all'),
      })
      .strict(),
  })
  .strict();

const UpdateBody = z
  .object({
    custom_rule: z
      .object({ title: title.optional(), content: content.optional(), active: z.boolean().optional(), scope: scope.optional() })
      .strict()
      .refine((r) => Object.values(r).some((v) => v !== undefined), { message: 'name at least one of title, content, active, scope' }),
  })
  .strict();

const RuleParams = z.object({ id: idParam });
const RuleEnvelope = z.object({ custom_rule: CustomRuleSchema });

function presentRule(r: CustomRule): z.infer<typeof CustomRuleSchema> {
  return {
    id: r.id,
    title: r.title,
    content: r.content,
    active: r.active,
    scope: r.scope as z.infer<typeof scope>,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

const readRule = { tag: 'Custom rules', audience: 'api_key', scope: 'rules:read', plan: 'any' } as const;
const writeRule = { tag: 'Custom rules', audience: 'api_key', scope: 'rules:write', plan: 'paid' } as const;

export const customRuleRoutes = [
  route({
    ...readRule,
    method: 'get',
    path: '/custom_rules',
    summary: 'List custom rules',
    description: `Every rule of the workspace, ordered by id. Not paged: a workspace holds at most ${CUSTOM_RULE_LIMITS.perWorkspace} rules.`,
    status: 200,
    response: z.object({ custom_rules: z.array(CustomRuleSchema), meta: z.object({ total_count: z.number().int() }) }),
    handle: async ({ clients, principal }) => {
      const { customRules } = await clients.accounts.listCustomRules({ workspaceId: principal.workspaceId, activeOnly: false });
      return { custom_rules: customRules.map(presentRule), meta: { total_count: customRules.length } };
    },
  }),
  route({
    ...readRule,
    method: 'get',
    path: '/custom_rules/{id}',
    summary: 'Get a custom rule',
    params: RuleParams,
    status: 200,
    response: RuleEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { customRule } = await clients.accounts.getCustomRule({ workspaceId: principal.workspaceId, id: params.id });
      return { custom_rule: presentRule(customRule!) };
    },
  }),
  route({
    ...writeRule,
    method: 'post',
    path: '/custom_rules',
    summary: 'Create a custom rule',
    description: `At most ${CUSTOM_RULE_LIMITS.perWorkspace} rules per workspace; one more is 422 INVALID_PARAMETERS (PLAN_LIMIT_REACHED is the content-plan limit).`,
    body: CreateBody,
    status: 201,
    response: RuleEnvelope,
    handle: async ({ clients, principal, body }) => {
      const r = body.custom_rule;
      const { customRule } = await clients.accounts.createCustomRule({
        workspaceId: principal.workspaceId,
        title: r.title,
        content: r.content,
        active: r.active,
        scope: r.scope,
      });
      return { custom_rule: presentRule(customRule!) };
    },
  }),
  route({
    ...writeRule,
    method: 'patch',
    path: '/custom_rules/{id}',
    summary: 'Update a custom rule',
    description: 'Changes only the fields given (at least one).',
    params: RuleParams,
    body: UpdateBody,
    status: 200,
    response: RuleEnvelope,
    handle: async ({ clients, principal, params, body }) => {
      const r = body.custom_rule;
      const { customRule } = await clients.accounts.updateCustomRule({
        workspaceId: principal.workspaceId,
        id: params.id,
        title: r.title,
        content: r.content,
        active: r.active,
        scope: r.scope,
      });
      return { custom_rule: presentRule(customRule!) };
    },
  }),
  route({
    ...writeRule,
    method: 'delete',
    path: '/custom_rules/{id}',
    summary: 'Delete a custom rule',
    description: 'Answers the rule as it was.',
    params: RuleParams,
    status: 200,
    response: RuleEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { customRule } = await clients.accounts.deleteCustomRule({ workspaceId: principal.workspaceId, id: params.id });
      return { custom_rule: presentRule(customRule!) };
    },
  }),
  route({
    ...writeRule,
    method: 'post',
    path: '/custom_rules/{id}/toggle',
    summary: 'Switch a custom rule on or off',
    description: 'Flips `active`; an inactive rule is not applied to generations.',
    params: RuleParams,
    status: 200,
    response: RuleEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { customRule } = await clients.accounts.toggleCustomRule({ workspaceId: principal.workspaceId, id: params.id });
      return { custom_rule: presentRule(customRule!) };
    },
  }),
];
