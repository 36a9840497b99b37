import type { PreferencesPatch, StoredPreferences } from './model.js';
import type { AccountsDeps, SecretBox } from './ports.js';
import { getWorkspace } from './workspaces.js';

/** Dub's API keys: `dub_` and a random part (https://dub.co/docs/api-reference/tokens). */
export const DUB_API_KEY_PATTERN = /^dub_[A-Za-z0-9_-]{8,200}$/;

/** A patch as stored: the plain Dub key replaced by its sealed form ('' removes it). */
export type SealedPreferencesPatch = Omit<PreferencesPatch, 'dubApiKey'> & { dubApiKeySealed?: string | undefined };

/** Seals the patch's Dub API key with the secret box, exactly as platform credentials are sealed. */
export function sealPatch(secrets: SecretBox, patch: PreferencesPatch): SealedPreferencesPatch {
  const { dubApiKey, ...rest } = patch;
  if (dubApiKey === undefined) return rest;
  return { ...rest, dubApiKeySealed: dubApiKey === '' ? '' : secrets.encrypt(dubApiKey) };
}

/**
 * The link shortening problems of a patch over the current preferences, each naming its public field: a key not of
 * Dub's shape (the key itself is never repeated), and shortening on with no key to make links with (neither the
 * workspace's own nor the deployment's fallback).
 */
export function linkShorteningProblems(current: StoredPreferences | null, patch: PreferencesPatch, hasFallbackKey: boolean): string[] {
  const problems: string[] = [];
  const key = patch.dubApiKey;
  if (key !== undefined && key !== '' && !DUB_API_KEY_PATTERN.test(key)) {
    problems.push(`dub_api_key: must be a Dub API key: "dub_" followed by 8 to 200 letters, digits, _ or - (got ${key.length} characters${key.startsWith('dub_') ? '' : ' not starting with "dub_"'})`);
  }
  const enabled = patch.linkShorteningEnabled ?? current?.linkShorteningEnabled ?? false;
  const ownKey = key !== undefined ? key !== '' : !!current?.dubApiKeySealed;
  if (enabled && !ownKey && !hasFallbackKey) {
    problems.push(
      key === ''
        ? 'dub_api_key: cannot be removed while link_shortening_enabled is true (this deployment has no fallback Dub key)'
        : 'link_shortening_enabled: needs a Dub API key: set dub_api_key (this deployment has no fallback Dub key)',
    );
  }
  return problems;
}

/** Whether a patch touches link shortening (only then are the current preferences read to check it). */
export const touchesLinkShortening = (patch: PreferencesPatch) => patch.linkShorteningEnabled !== undefined || patch.dubApiKey !== undefined;

export interface LinkShortening {
  enabled: boolean;
  /** Decrypted: the workspace's own key, else the deployment's fallback, else ''. */
  apiKey: string;
  keySource: 'workspace' | 'deployment' | '';
}

/** What the analytics service needs to shorten a workspace's links: on or off, and the key to make them with. */
export async function getLinkShortening(deps: AccountsDeps, workspaceId: number): Promise<LinkShortening> {
  await getWorkspace(deps, workspaceId);
  const stored = await deps.preferences.get(workspaceId);
  const enabled = stored?.linkShorteningEnabled ?? false;
  if (stored?.dubApiKeySealed) return { enabled, apiKey: deps.secrets.decrypt(stored.dubApiKeySealed), keySource: 'workspace' };
  if (deps.dubFallbackKey) return { enabled, apiKey: deps.dubFallbackKey, keySource: 'deployment' };
  return { enabled, apiKey: '', keySource: '' };
}
