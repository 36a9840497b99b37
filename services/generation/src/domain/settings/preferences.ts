import { invalidParameters } from '@spa/errors';
import { isValidTimezone } from '@spa/slots';
import { PREFERENCE_STRUCTURES, PREFERENCE_TONES, THEMES } from '@spa/vocabulary';
import type { Preferences, PreferencesPatch, StoredPreferences } from './model.js';
import type { ModelList, SettingsDeps } from './ports.js';

/** Longest free-text `custom_rules` guidance (the bound accounts stores). */
export const MAX_CUSTOM_RULES_TEXT = 5000;

/** The preferences as the API shows them: the effective model (the stored one while offered, else the default). */
export function presentPreferences(stored: StoredPreferences, models: ModelList): Preferences {
  const aiModel = stored.aiModel && models.has(stored.aiModel) ? stored.aiModel : models.defaultModel().id;
  return { ...stored, aiModel, availableAiModels: models.list() };
}

export async function getPreferences(deps: SettingsDeps, workspaceId: number): Promise<Preferences> {
  return presentPreferences(await deps.accounts.getPreferences(workspaceId), deps.models);
}

const quoted = (value: string) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);

function oneOf(field: string, allowed: readonly string[], value: string | undefined): string | null {
  if (value === undefined || allowed.includes(value)) return null;
  return `preferences.${field}: must be one of ${allowed.join(', ')} (got ${quoted(value)})`;
}

/**
 * Every bad value of a patch at once, each naming its public field: the vocabulary of tone, structure and theme,
 * the IANA zone, the length of custom_rules and whether this deployment offers `ai_model`.
 */
export function preferencesProblems(patch: PreferencesPatch, models: ModelList): string[] {
  const problems = [
    oneOf('tone', PREFERENCE_TONES, patch.tone),
    oneOf('structure', PREFERENCE_STRUCTURES, patch.structure),
    oneOf('theme', THEMES, patch.theme),
    patch.timezone === undefined || isValidTimezone(patch.timezone) ? null : `preferences.timezone: must be an IANA time zone name such as "Europe/Berlin" or "UTC" (got ${quoted(patch.timezone)})`,
    patch.customRules === undefined || patch.customRules.length <= MAX_CUSTOM_RULES_TEXT
      ? null
      : `preferences.custom_rules: must be at most ${MAX_CUSTOM_RULES_TEXT} characters (got ${patch.customRules.length})`,
    patch.aiModel === undefined || models.has(patch.aiModel)
      ? null
      : `preferences.ai_model: must be the id of one of the available_ai_models (${models
          .list()
          .map((m) => m.id)
          .join(', ')}); got ${quoted(patch.aiModel)}`,
  ];
  return problems.filter((p): p is string => p !== null);
}

/**
 * Merges `patch` into the workspace's preferences (accounts stores them). Every bad field is named at once before
 * anything is written; accounts checks the patch again and its own findings come back as they are.
 */
export async function updatePreferences(deps: SettingsDeps, workspaceId: number, patch: PreferencesPatch): Promise<Preferences> {
  const problems = preferencesProblems(patch, deps.models);
  if (problems.length) throw invalidParameters(problems);
  return presentPreferences(await deps.accounts.updatePreferences(workspaceId, patch), deps.models);
}
