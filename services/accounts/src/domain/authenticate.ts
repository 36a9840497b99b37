import { AppError } from '@spa/errors';
import type { Principal } from './model.js';
import type { AccountsDeps } from './ports.js';
import { API_KEY_PREFIX, SITE_TOKEN_PREFIX, hashSecret } from './secrets.js';

const unauthorized = (message = 'Missing or invalid API key') => new AppError('UNAUTHORIZED', message);

/**
 * Resolves a bearer token to its principal. API keys: unknown or revoked -> UNAUTHORIZED;
 * creator no longer a member -> WORKSPACE_FORBIDDEN; free tier (no API access) -> UNAUTHORIZED.
 * Site Connection tokens resolve to their one site.
 */
export async function authenticate(deps: AccountsDeps, token: string): Promise<Principal> {
  if (token.startsWith(API_KEY_PREFIX)) {
    const key = await deps.apiKeys.findActiveByHash(hashSecret(token));
    if (!key) throw unauthorized();
    const workspace = await deps.workspaces.get(key.workspaceId);
    if (!workspace) throw unauthorized();
    if (!(await deps.memberships.isMember(workspace.id, key.userId))) {
      throw new AppError('WORKSPACE_FORBIDDEN', "The API key's creator no longer belongs to its workspace");
    }
    if (workspace.tier === 'free') throw unauthorized('API access requires a paid plan (Starter, Pro or Team)');
    return {
      kind: 'api_key',
      workspaceId: workspace.id,
      userId: key.userId,
      keyId: key.id,
      siteId: 0,
      scopes: key.scopes,
      tier: workspace.tier,
      subscriptionStatus: workspace.subscriptionStatus,
    };
  }
  if (token.startsWith(SITE_TOKEN_PREFIX)) {
    const site = await deps.sites.findByTokenHash(hashSecret(token));
    if (!site) throw unauthorized('Missing or invalid Site Connection token');
    const workspace = await deps.workspaces.get(site.workspaceId);
    if (!workspace) throw unauthorized('Missing or invalid Site Connection token');
    return {
      kind: 'site_token',
      workspaceId: workspace.id,
      userId: 0,
      keyId: 0,
      siteId: site.id,
      scopes: [],
      tier: workspace.tier,
      subscriptionStatus: workspace.subscriptionStatus,
    };
  }
  throw unauthorized();
}
