import type { Preferences } from '@spa/contracts/accounts/v1/accounts';
import type { ResolveAiModelResponse } from '@spa/contracts/generation/v1/settings';
import { AppError, invalidParameters } from '@spa/errors';
import { EMAIL_NOTIFICATIONS, PREFERENCE_STRUCTURES, PREFERENCE_TONES, THEMES } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';

const AiModelOptionSchema = z
  .object({
    id: z.string().describe('The value to send as `ai_model`'),
    label: z.string(),
    premium: z.boolean(),
    typical_cost_micros: z.number().int().describe('Typical cost of one generation in millionths of a US dollar; 0 for the built-in composer'),
    builtin: z.boolean().describe('True for the built-in offline composer: no network, no key and no AI model behind it'),
  })
  .meta({ id: 'AiModelOption' });

const EmailNotificationsSchema = z.object({
  post_failure: z.boolean(),
  weekly_briefing: z.boolean(),
  product_tips: z.boolean(),
  re_engagement: z.boolean(),
});

const PreferencesSchema = z
  .object({
    tone: z.enum(PREFERENCE_TONES),
    include_emoji: z.boolean(),
    structure: z.enum(PREFERENCE_STRUCTURES),
    custom_rules: z.string().describe('Free-text guidance applied to every generation (the structured rules are /custom_rules)'),
    timezone: z.string().describe('IANA time zone: where the workspace days begin and end (daily quota, plan runs)'),
    use_post_metrics_for_ai: z.boolean(),
    theme: z.enum(THEMES),
    ai_model: z.string().describe('The model generations use: the chosen one while it is offered, else the default model (the first of available_ai_models)'),
    available_ai_models: z.array(AiModelOptionSchema).describe('The models this deployment offers; read-only'),
    email_notifications: EmailNotificationsSchema,
    link_shortening_enabled: z
      .boolean()
      .describe('URLs in posts are replaced at publish time by Dub short links, one per target, whose clicks count as the target\'s `clicks`; off: texts are published as written and `dub_short_url`/`dub_original_url` stay null'),
    dub_api_key_set: z
      .boolean()
      .describe("Whether the workspace stored a Dub API key of its own (`dub_api_key` is write-only and never answered); false: the deployment's fallback key is used, if it has one"),
  })
  .meta({ id: 'Preferences' });

/** One value checked by accounts (all bad values are named at once), so only the JSON type is checked here. */
const valueOf = (allowed: readonly string[]) => z.string().describe(`One of: ${allowed.join(', ')}`);

const UpdatePreferencesBody = z
  .object({
    preferences: z
      .object({
        tone: valueOf(PREFERENCE_TONES).optional(),
        include_emoji: z.boolean().optional(),
        structure: valueOf(PREFERENCE_STRUCTURES).optional(),
        custom_rules: z.string().optional().describe('At most 5000 characters'),
        timezone: z.string().optional().describe('IANA time zone name, e.g. Europe/Berlin or UTC'),
        use_post_metrics_for_ai: z.boolean().optional(),
        theme: valueOf(THEMES).optional(),
        ai_model: z.string().optional().describe('The id of one of available_ai_models'),
        link_shortening_enabled: z.boolean().optional().describe("Turning it on needs a Dub API key: the workspace's own (`dub_api_key`) or the deployment's fallback"),
        dub_api_key: z
          .string()
          .nullable()
          .optional()
          .describe('Write-only: the workspace\'s Dub API key (`dub_` and 8 to 200 letters, digits, _ or -), stored encrypted and never answered (see `dub_api_key_set`); null or "" removes it'),
        available_ai_models: z.never({ error: 'is read-only (GET /preferences lists the models)' }).optional().describe('Read-only: sending it is 422 INVALID_PARAMETERS'),
        email_notifications: z
          .object(Object.fromEntries(EMAIL_NOTIFICATIONS.map((name) => [name, z.boolean().optional()])) as Record<(typeof EMAIL_NOTIFICATIONS)[number], z.ZodOptional<z.ZodBoolean>>)
          .strict()
          .optional()
          .describe('Only the flags given change'),
      })
      .strict()
      .refine((p) => Object.keys(p).length > 0, { message: 'name at least one field to change' }),
  })
  .strict();

/** Accounts names its fields bare (`timezone: …`), generation too (`ai_model: …`); the public field is `preferences.timezone`. */
const publicField = (detail: string) => (detail.startsWith('preferences.') ? detail : `preferences.${detail}`);

/** The stored preferences (accounts) with the models offered and the effective model (generation). */
function presentPreferences(p: Preferences | undefined, models: ResolveAiModelResponse): { preferences: z.infer<typeof PreferencesSchema> } {
  if (!p) throw new Error('accounts answered without preferences');
  const n = p.emailNotifications;
  return {
    preferences: {
      tone: p.tone as z.infer<typeof PreferencesSchema>['tone'],
      include_emoji: p.includeEmoji,
      structure: p.structure as z.infer<typeof PreferencesSchema>['structure'],
      custom_rules: p.customRules,
      timezone: p.timezone,
      use_post_metrics_for_ai: p.usePostMetricsForAi,
      theme: p.theme as z.infer<typeof PreferencesSchema>['theme'],
      ai_model: models.effectiveAiModel,
      available_ai_models: models.availableAiModels.map((m) => ({
        id: m.id,
        label: m.label,
        premium: m.premium,
        typical_cost_micros: m.typicalCostMicros,
        builtin: m.builtin,
      })),
      email_notifications: {
        post_failure: n?.postFailure ?? true,
        weekly_briefing: n?.weeklyBriefing ?? true,
        product_tips: n?.productTips ?? true,
        re_engagement: n?.reEngagement ?? true,
      },
      link_shortening_enabled: p.linkShorteningEnabled,
      dub_api_key_set: p.dubApiKeySet,
    },
  };
}

export const preferenceRoutes = [
  route({
    method: 'get',
    path: '/preferences',
    tag: 'Preferences',
    summary: 'Read the generation preferences',
    description: 'Paid plan. A workspace that never set a field gets its default (tone professional, structure auto, timezone UTC, theme light, every email notification on, link shortening off).',
    audience: 'api_key',
    scope: 'preferences:read',
    plan: 'paid',
    status: 200,
    response: z.object({ preferences: PreferencesSchema }),
    handle: async ({ clients, principal }) => {
      const { preferences } = await clients.accounts.getPreferences({ workspaceId: principal.workspaceId });
      return presentPreferences(preferences, await clients.settings.resolveAiModel({ aiModel: preferences?.aiModel ?? '' }));
    },
  }),
  route({
    method: 'patch',
    path: '/preferences',
    tag: 'Preferences',
    summary: 'Update the generation preferences (merge)',
    description:
      'Paid plan. Only the fields given change (email_notifications flag by flag). `dub_api_key` is write-only: it is stored encrypted and no answer repeats it (`dub_api_key_set` says whether one is stored). Every bad field is named at once in `details` (422 INVALID_PARAMETERS) and nothing is written then: unknown fields, wrong JSON types, values outside the allowed lists, a time zone that is not an IANA name, an `ai_model` that is not one of `available_ai_models`, a `dub_api_key` not of Dub\'s shape, `link_shortening_enabled: true` with no Dub key (neither the workspace\'s own nor the deployment\'s fallback), and `available_ai_models` itself (read-only).',
    audience: 'api_key',
    scope: 'preferences:write',
    plan: 'paid',
    body: UpdatePreferencesBody,
    status: 200,
    response: z.object({ preferences: PreferencesSchema }),
    handle: async ({ clients, principal, body }) => {
      const p = body.preferences;
      const n = p.email_notifications;
      // Generation owns the model catalogue and checks ai_model; accounts checks and stores everything else. When
      // ai_model is not offered, accounts only checks the rest (validate_only) so that every bad field is named at once.
      const asked = p.ai_model === undefined ? undefined : await clients.settings.resolveAiModel({ aiModel: p.ai_model });
      const modelProblems = asked?.aiModelProblem ? [asked.aiModelProblem] : [];
      let preferences: Preferences | undefined;
      try {
        ({ preferences } = await clients.accounts.updatePreferences({
          workspaceId: principal.workspaceId,
          tone: p.tone,
          includeEmoji: p.include_emoji,
          structure: p.structure,
          customRules: p.custom_rules,
          timezone: p.timezone,
          usePostMetricsForAi: p.use_post_metrics_for_ai,
          theme: p.theme,
          aiModel: p.ai_model,
          linkShorteningEnabled: p.link_shortening_enabled,
          dubApiKey: p.dub_api_key === null ? '' : p.dub_api_key,
          emailNotifications: n && {
            postFailure: n.post_failure,
            weeklyBriefing: n.weekly_briefing,
            productTips: n.product_tips,
            reEngagement: n.re_engagement,
          },
          validateOnly: modelProblems.length > 0,
        }));
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'INVALID_PARAMETERS' || !err.details?.length) throw err;
        const named = err.details;
        throw invalidParameters([...named, ...modelProblems.filter(() => !named.some((d) => d.startsWith('ai_model:')))].map(publicField));
      }
      if (modelProblems.length) throw invalidParameters(modelProblems.map(publicField));
      const models = asked ?? (await clients.settings.resolveAiModel({ aiModel: preferences?.aiModel ?? '' }));
      return presentPreferences(preferences, models);
    },
  }),
];
