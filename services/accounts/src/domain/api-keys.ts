import { AppError, invalidParameters, notFound } from '@spa/errors';
import { SCOPES, type Scope } from '@spa/vocabulary';
import type { AccountsDeps } from './ports.js';
import { API_KEY_PREFIX, hashSecret, newSecret } from './secrets.js';
import { getWorkspace } from './workspaces.js';

/** Scopes as given at creation: a list of known scopes, or ['all'] for every scope. */
export function parseScopes(requested: string[]): Scope[] {
  const cleaned = requested.map((s) => s.trim()).filter(Boolean);
  if (cleaned.length === 1 && cleaned[0] === 'all') return [...SCOPES];
  const unknown = cleaned.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw invalidParameters(unknown.map((s) => `unknown scope: ${s}`));
  if (!cleaned.length) throw invalidParameters(['at least one scope is required']);
  return [...new Set(cleaned)] as Scope[];
}

/**
 * Creates the workspace's one active API key. The secret is returned once; only its hash is kept.
 * The key is pinned to the workspace and to its creator's membership.
 */
export async function createApiKey(deps: AccountsDeps, input: { workspaceId: number; userId?: number | undefined; scopes: string[] }): Promise<{ keyId: number; apiKey: string }> {
  const workspace = await getWorkspace(deps, input.workspaceId);
  const scopes = parseScopes(input.scopes);
  const userId = input.userId ?? workspace.ownerUserId;
  if (!(await deps.memberships.isMember(workspace.id, userId))) {
    throw invalidParameters([`user ${userId} is not a member of workspace ${workspace.id}`]);
  }
  const apiKey = newSecret(API_KEY_PREFIX);
  const keyId = await deps.ids.next('api_keys');
  await deps.apiKeys.insertActive({
    id: keyId,
    workspaceId: workspace.id,
    userId,
    hash: hashSecret(apiKey),
    scopes,
    createdAt: deps.clock.now(),
    prefix: apiKey.slice(0, API_KEY_PREFIX.length + 4),
  });
  return { keyId, apiKey };
}

export async function revokeApiKey(deps: AccountsDeps, workspaceId: number): Promise<number> {
  await getWorkspace(deps, workspaceId);
  const revoked = await deps.apiKeys.revokeActive(workspaceId, deps.clock.now());
  if (!revoked) throw notFound('Active API key');
  return revoked.id;
}

export const apiKeyLimitReached = (): AppError => new AppError('API_KEY_LIMIT_REACHED', 'This workspace already has an active API key; revoke it before creating another');
