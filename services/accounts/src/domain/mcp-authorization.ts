import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, invalidParameters, notFound } from '@spa/errors';
import type { Principal } from './model.js';
import type { AccountsDeps } from './ports.js';
import { parseScopes } from './api-keys.js';
import { hashSecret, newSecret } from './secrets.js';

export const MCP_ACCESS_PREFIX = 'mcp_at_';
const REFRESH_PREFIX = 'mcp_rt_';
const CODE_PREFIX = 'mcp_code_';
const CLIENT_PREFIX = 'mcpc_';

export const CODE_TTL_SEC = 60;
export const ACCESS_TTL_SEC = 3600;
export const REFRESH_TTL_SEC = 30 * 86_400;

export interface McpClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  createdAt: Date;
}

export interface McpGrant {
  id: number;
  workspaceId: number;
  userId: number;
  clientId: string;
  clientName: string;
  redirectUri: string;
  scopes: string[];
  resource: string;
  createdAt: Date;
  lastUsedAt: Date | undefined;
  revokedAt: Date | undefined;
  /** The current code (until used), access token and refresh token, as hashes, with their ends. */
  codeHash: string | undefined;
  /** The code once used: a second use of it revokes the grant. */
  usedCodeHash: string | undefined;
  codeChallenge: string;
  codeExpiresAt: Date | undefined;
  accessHash: string | undefined;
  accessExpiresAt: Date | undefined;
  refreshHash: string | undefined;
  refreshExpiresAt: Date | undefined;
}

/** Where clients and grants are kept. */
export interface McpAuthorizationStore {
  insertClient(client: McpClient): Promise<void>;
  getClient(clientId: string): Promise<McpClient | undefined>;
  nextGrantId(): Promise<number>;
  insertGrant(grant: McpGrant): Promise<void>;
  findGrantBy(field: 'codeHash' | 'usedCodeHash' | 'accessHash' | 'refreshHash', hash: string): Promise<McpGrant | undefined>;
  /** Applies `changes` when the grant still has `expected` as the given hash (one winner among concurrent uses). */
  updateGrantIf(id: number, expected: { field: 'codeHash' | 'refreshHash'; hash: string }, changes: Partial<McpGrant>): Promise<boolean>;
  updateGrant(id: number, changes: Partial<McpGrant>): Promise<void>;
  listGrants(workspaceId: number): Promise<McpGrant[]>;
  getGrant(workspaceId: number, id: number): Promise<McpGrant | undefined>;
}

export type McpAuthorizationDeps = Pick<AccountsDeps, 'workspaces' | 'memberships' | 'clock'> & { mcp: McpAuthorizationStore };

const invalidGrant = (why: string) => new AppError('UNAUTHORIZED', `invalid_grant: ${why}`);

/** https anywhere, or http on a loopback host (a native client's local callback); no fragment. */
function checkRedirectUri(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `redirect_uris: ${raw} is not an absolute URL`;
  }
  if (url.hash) return `redirect_uris: ${raw} must not have a fragment`;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return `redirect_uris: ${raw} must use https (or http on localhost)`;
  return undefined;
}

export async function registerClient(deps: McpAuthorizationDeps, input: { clientName: string; redirectUris: string[] }): Promise<McpClient> {
  const name = input.clientName.trim();
  const problems = [
    ...(name.length > 100 ? ['client_name: at most 100 characters'] : []),
    ...(input.redirectUris.length === 0 ? ['redirect_uris: at least one is required'] : []),
    ...(input.redirectUris.length > 10 ? ['redirect_uris: at most 10'] : []),
    ...input.redirectUris.map(checkRedirectUri).filter((p): p is string => p !== undefined),
  ];
  if (problems.length) throw invalidParameters(problems);
  const client: McpClient = {
    clientId: CLIENT_PREFIX + randomBytes(16).toString('base64url'),
    clientName: name || 'MCP client',
    redirectUris: [...new Set(input.redirectUris)],
    createdAt: deps.clock.now(),
  };
  await deps.mcp.insertClient(client);
  return client;
}

export async function getClient(deps: McpAuthorizationDeps, clientId: string): Promise<McpClient> {
  const client = await deps.mcp.getClient(clientId);
  if (!client) throw notFound(`No MCP client ${clientId}`);
  return client;
}

const after = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

/** The member's consent: a new grant with its code. */
export async function issueCode(
  deps: McpAuthorizationDeps,
  input: { workspaceId: number; userId: number; clientId: string; clientName: string; redirectUri: string; codeChallenge: string; scopes: string[]; resource: string },
): Promise<{ code: string; grantId: number }> {
  if (!(await deps.memberships.isMember(input.workspaceId, input.userId))) throw new AppError('WORKSPACE_FORBIDDEN', 'Only a member of the workspace can authorize a client for it');
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.codeChallenge)) throw invalidParameters(['code_challenge: the S256 challenge (43 base64url characters) is required']);
  const scopes = parseScopes(input.scopes);
  const now = deps.clock.now();
  const code = newSecret(CODE_PREFIX);
  const grant: McpGrant = {
    id: await deps.mcp.nextGrantId(),
    workspaceId: input.workspaceId,
    userId: input.userId,
    clientId: input.clientId,
    clientName: input.clientName.slice(0, 100) || 'MCP client',
    redirectUri: input.redirectUri,
    scopes,
    resource: input.resource,
    createdAt: now,
    lastUsedAt: undefined,
    revokedAt: undefined,
    codeHash: hashSecret(code),
    usedCodeHash: undefined,
    codeChallenge: input.codeChallenge,
    codeExpiresAt: after(now, CODE_TTL_SEC),
    accessHash: undefined,
    accessExpiresAt: undefined,
    refreshHash: undefined,
    refreshExpiresAt: undefined,
  };
  await deps.mcp.insertGrant(grant);
  return { code, grantId: grant.id };
}

const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface McpTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSec: number;
  scopes: string[];
  grantId: number;
}

function newTokens(now: Date): { tokens: Pick<McpTokens, 'accessToken' | 'refreshToken'>; changes: Partial<McpGrant> } {
  const accessToken = newSecret(MCP_ACCESS_PREFIX);
  const refreshToken = newSecret(REFRESH_PREFIX);
  return {
    tokens: { accessToken, refreshToken },
    changes: { accessHash: hashSecret(accessToken), accessExpiresAt: after(now, ACCESS_TTL_SEC), refreshHash: hashSecret(refreshToken), refreshExpiresAt: after(now, REFRESH_TTL_SEC) },
  };
}

/**
 * The code for tokens. A code works once: a second use (a stolen code replayed) revokes the grant and every
 * token it gave, as OAuth 2.1 advises.
 */
export async function exchangeCode(deps: McpAuthorizationDeps, input: { code: string; clientId: string; redirectUri: string; codeVerifier: string; resource: string }): Promise<McpTokens> {
  const codeHash = hashSecret(input.code);
  const grant = await deps.mcp.findGrantBy('codeHash', codeHash);
  const now = deps.clock.now();
  if (!grant) {
    const used = await deps.mcp.findGrantBy('usedCodeHash', codeHash);
    if (used && !used.revokedAt) await deps.mcp.updateGrant(used.id, { revokedAt: now });
    throw invalidGrant(used ? 'the authorization code was already used; the grant it gave is revoked' : 'the authorization code is unknown');
  }
  if (grant.revokedAt) throw invalidGrant('the authorization was revoked');
  if (!grant.codeExpiresAt || grant.codeExpiresAt <= now) throw invalidGrant('the authorization code has expired');
  if (grant.clientId !== input.clientId) throw invalidGrant('the authorization code was issued to another client');
  if (grant.redirectUri !== input.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request');
  if (input.resource && grant.resource !== input.resource) throw invalidGrant(`resource differs from the authorization request (${grant.resource})`);
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(input.codeVerifier) || !sameText(s256(input.codeVerifier), grant.codeChallenge)) {
    throw invalidGrant('code_verifier does not match the code_challenge');
  }
  const { tokens, changes } = newTokens(now);
  const won = await deps.mcp.updateGrantIf(grant.id, { field: 'codeHash', hash: codeHash }, { ...changes, codeHash: undefined, usedCodeHash: codeHash, codeExpiresAt: undefined });
  if (!won) {
    await deps.mcp.updateGrant(grant.id, { revokedAt: now });
    throw invalidGrant('the authorization code was already used; the grant is revoked');
  }
  return { ...tokens, expiresInSec: ACCESS_TTL_SEC, scopes: grant.scopes, grantId: grant.id };
}

/** New tokens for a refresh token, which stops working (rotation). */
export async function refreshTokens(deps: McpAuthorizationDeps, input: { refreshToken: string; clientId: string }): Promise<McpTokens> {
  const refreshHash = hashSecret(input.refreshToken);
  const grant = await deps.mcp.findGrantBy('refreshHash', refreshHash);
  const now = deps.clock.now();
  if (!grant || grant.revokedAt) throw invalidGrant('the refresh token is unknown, replaced or revoked');
  if (grant.clientId !== input.clientId) throw invalidGrant('the refresh token was issued to another client');
  if (!grant.refreshExpiresAt || grant.refreshExpiresAt <= now) throw invalidGrant('the refresh token has expired');
  const { tokens, changes } = newTokens(now);
  if (!(await deps.mcp.updateGrantIf(grant.id, { field: 'refreshHash', hash: refreshHash }, changes))) throw invalidGrant('the refresh token was already used');
  return { ...tokens, expiresInSec: ACCESS_TTL_SEC, scopes: grant.scopes, grantId: grant.id };
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'Missing, expired or revoked access token');

/** The principal of an access token: its grant's workspace and scopes, under the rules of an API key. */
export async function authenticateToken(deps: McpAuthorizationDeps, token: string): Promise<{ principal: Principal; grantId: number; resource: string }> {
  if (!token.startsWith(MCP_ACCESS_PREFIX)) throw unauthorized();
  const grant = await deps.mcp.findGrantBy('accessHash', hashSecret(token));
  const now = deps.clock.now();
  if (!grant || grant.revokedAt || !grant.accessExpiresAt || grant.accessExpiresAt <= now) throw unauthorized();
  const workspace = await deps.workspaces.get(grant.workspaceId);
  if (!workspace) throw unauthorized();
  if (!(await deps.memberships.isMember(workspace.id, grant.userId))) throw new AppError('WORKSPACE_FORBIDDEN', 'The member who authorized this client no longer belongs to its workspace');
  if (workspace.tier === 'free') throw new AppError('UNAUTHORIZED', 'API access requires a paid plan (Starter, Pro or Team)');
  // Kept to the minute: a dashboard list does not need more, and most uses then write nothing.
  if (!grant.lastUsedAt || now.getTime() - grant.lastUsedAt.getTime() > 60_000) await deps.mcp.updateGrant(grant.id, { lastUsedAt: now });
  return {
    principal: {
      kind: 'api_key',
      workspaceId: workspace.id,
      userId: grant.userId,
      keyId: 0,
      siteId: 0,
      scopes: grant.scopes as Principal['scopes'],
      tier: workspace.tier,
      subscriptionStatus: workspace.subscriptionStatus,
    },
    grantId: grant.id,
    resource: grant.resource,
  };
}

export const listGrants = async (deps: McpAuthorizationDeps, workspaceId: number): Promise<McpGrant[]> => (await deps.mcp.listGrants(workspaceId)).filter((g) => !g.revokedAt);

export async function revokeGrant(deps: McpAuthorizationDeps, workspaceId: number, grantId: number): Promise<void> {
  const grant = await deps.mcp.getGrant(workspaceId, grantId);
  if (!grant || grant.revokedAt) throw notFound(`No authorized client ${grantId} in this workspace`);
  await deps.mcp.updateGrant(grant.id, { revokedAt: deps.clock.now() });
}

/** RFC 7009: the grant of an access or refresh token of this client ends; anything else is ignored. */
export async function revokeToken(deps: McpAuthorizationDeps, input: { token: string; clientId: string }): Promise<void> {
  const hash = hashSecret(input.token);
  const grant = (await deps.mcp.findGrantBy('accessHash', hash)) ?? (await deps.mcp.findGrantBy('refreshHash', hash));
  if (grant && !grant.revokedAt && grant.clientId === input.clientId) await deps.mcp.updateGrant(grant.id, { revokedAt: deps.clock.now() });
}
