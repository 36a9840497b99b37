import { invalidParameters } from '@spa/errors';
import { isValidTimezone } from '@spa/slots';
import { PREFERENCE_STRUCTURES, PREFERENCE_TONES, THEMES } from '@spa/vocabulary';
import type { Preferences, PreferencesPatch, StoredPreferences } from './model.js';
import { linkShorteningProblems, sealPatch, touchesLinkShortening, type SealedPreferencesPatch } from './link-shortening.js';
import type { AccountsDeps } from './ports.js';
import { getWorkspace } from './workspaces.js';

/** Longest free-text `custom_rules` guidance, in characters. */
export const MAX_CUSTOM_RULES_TEXT = 5000;
/** Longest `ai_model` id; whether the id is a known model is the generation service's check. */
export const MAX_AI_MODEL_LENGTH = 100;

/** What a workspace that never changed its preferences gets. */
export const DEFAULT_PREFERENCES: Omit<Preferences, 'updatedAt'> = {
  tone: 'professional',
  includeEmoji: false,
  structure: 'auto',
  customRules: '',
  timezone: 'UTC',
  usePostMetricsForAi: true,
  theme: 'light',
  aiModel: '',
  emailNotifications: { postFailure: true, weeklyBriefing: true, productTips: true, reEngagement: true },
  linkShorteningEnabled: false,
  dubApiKeySet: false,
};

/** Only the fields that have a value. */
const defined = <T extends object>(o: T | undefined): Partial<T> => Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The workspace's preferences: the stored fields over the defaults; `updatedAt` is the creation time until a first change. */
export async function getPreferences(deps: AccountsDeps, workspaceId: number): Promise<Preferences> {
  const workspace = await getWorkspace(deps, workspaceId);
  const { emailNotifications, updatedAt, dubApiKeySealed, ...fields } = (await deps.preferences.get(workspaceId)) ?? {};
  return {
    ...DEFAULT_PREFERENCES,
    ...defined(fields),
    dubApiKeySet: !!dubApiKeySealed,
    emailNotifications: { ...DEFAULT_PREFERENCES.emailNotifications, ...defined(emailNotifications) },
    updatedAt: updatedAt ?? workspace.createdAt,
  };
}

/** `current` with the fields present in `patch` replaced and the others kept. */
export function mergePreferences(current: StoredPreferences | null, patch: SealedPreferencesPatch, at: Date): StoredPreferences {
  const { emailNotifications, ...fields } = patch;
  return {
    ...current,
    ...defined(fields),
    emailNotifications: { ...current?.emailNotifications, ...defined(emailNotifications) },
    updatedAt: at,
  };
}

const oneOf = (field: string, allowed: readonly string[], value: string): string | null =>
  allowed.includes(value) ? null : `${field}: must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`;

/** Every problem of a patch, each naming its public (snake_case) field. */
export function preferencesProblems(patch: PreferencesPatch): string[] {
  const problems: Array<string | null> = [
    patch.tone === undefined ? null : oneOf('tone', PREFERENCE_TONES, patch.tone),
    patch.structure === undefined ? null : oneOf('structure', PREFERENCE_STRUCTURES, patch.structure),
    patch.theme === undefined ? null : oneOf('theme', THEMES, patch.theme),
    patch.timezone === undefined || isValidTimezone(patch.timezone) ? null : `timezone: must be an IANA time zone name such as "Europe/Berlin" or "UTC" (got ${JSON.stringify(patch.timezone)})`,
    patch.customRules === undefined || patch.customRules.length <= MAX_CUSTOM_RULES_TEXT ? null : `custom_rules: must be at most ${MAX_CUSTOM_RULES_TEXT} characters (got ${patch.customRules.length})`,
    patch.aiModel === undefined || (patch.aiModel.trim() !== '' && patch.aiModel.length <= MAX_AI_MODEL_LENGTH)
      ? null
      : `ai_model: must be a model id of 1 to ${MAX_AI_MODEL_LENGTH} characters (got ${JSON.stringify(patch.aiModel.slice(0, 120))})`,
  ];
  return problems.filter((p): p is string => p !== null);
}

/**
 * Merges `patch` into the workspace's preferences: only the fields present change. Every bad field is named
 * at once (INVALID_PARAMETERS) and nothing is written then. An empty patch changes nothing, and neither does
 * `validateOnly` (a caller that found a problem of its own asks for these so it can name them all at once).
 */
export async function updatePreferences(deps: AccountsDeps, workspaceId: number, patch: PreferencesPatch, opts: { validateOnly?: boolean } = {}): Promise<Preferences> {
  await getWorkspace(deps, workspaceId);
  const hasFallbackKey = !!deps.dubFallbackKey;
  const linkProblems = touchesLinkShortening(patch) ? linkShorteningProblems(await deps.preferences.get(workspaceId), patch, hasFallbackKey) : [];
  const problems = [...preferencesProblems(patch), ...linkProblems];
  if (problems.length) throw invalidParameters(problems);
  const { emailNotifications, ...fields } = patch;
  if (!opts.validateOnly && (Object.keys(defined(fields)).length || Object.keys(defined(emailNotifications)).length)) {
    const at = deps.clock.now();
    const sealed = sealPatch(deps.secrets, patch);
    await deps.preferences.change(workspaceId, (current) => {
      // Checked again on the revision the change applies to: a key removed meanwhile does not leave shortening on without one.
      const raced = touchesLinkShortening(patch) ? linkShorteningProblems(current, patch, hasFallbackKey) : [];
      if (raced.length) throw invalidParameters(raced);
      return mergePreferences(current, sealed, at);
    });
  }
  return getPreferences(deps, workspaceId);
}
