import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  authenticateToken,
  exchangeCode,
  issueCode,
  listGrants,
  refreshTokens,
  registerClient,
  revokeGrant,
  revokeToken,
  type McpAuthorizationDeps,
  type McpAuthorizationStore,
  type McpClient,
  type McpGrant,
} from './mcp-authorization.js';

/** The store's contract in memory (the Mongo store is exercised by the end-to-end OAuth test). */
function memoryStore(): McpAuthorizationStore {
  const clients = new Map<string, McpClient>();
  const grants = new Map<number, McpGrant>();
  let next = 0;
  const apply = (id: number, changes: Partial<McpGrant>) => grants.set(id, { ...grants.get(id)!, ...changes });
  return {
    insertClient: async (c) => void clients.set(c.clientId, c),
    getClient: async (id) => clients.get(id),
    nextGrantId: async () => ++next,
    insertGrant: async (g) => void grants.set(g.id, g),
    findGrantBy: async (field, hash) => [...grants.values()].find((g) => g[field] === hash),
    updateGrantIf: async (id, expected, changes) => {
      const g = grants.get(id);
      if (!g || g.revokedAt || g[expected.field] !== expected.hash) return false;
      apply(id, changes);
      return true;
    },
    updateGrant: async (id, changes) => void apply(id, changes),
    listGrants: async (ws) => [...grants.values()].filter((g) => g.workspaceId === ws).sort((a, b) => b.id - a.id),
    getGrant: async (ws, id) => [...grants.values()].find((g) => g.workspaceId === ws && g.id === id),
  };
}

function setup() {
  let now = new Date('2026-03-01T10:00:00Z');
  const members = new Set(['1:10']);
  const deps: McpAuthorizationDeps = {
    mcp: memoryStore(),
    clock: { now: () => now },
    workspaces: { get: async (id: number) => (id === 1 ? { id: 1, tier: 'pro', subscriptionStatus: 'active' } : null) } as unknown as McpAuthorizationDeps['workspaces'],
    memberships: { isMember: async (ws: number, user: number) => members.has(`${ws}:${user}`) } as unknown as McpAuthorizationDeps['memberships'],
  };
  return { deps, advance: (sec: number) => (now = new Date(now.getTime() + sec * 1000)), members };
}

const verifier = 'v'.repeat(20) + 'erifier-0123456789abcdefghijklmnop';
const challenge = createHash('sha256').update(verifier).digest('base64url');
const request = {
  workspaceId: 1,
  userId: 10,
  clientId: 'mcpc_a',
  clientName: 'Agent',
  redirectUri: 'http://127.0.0.1:7777/cb',
  codeChallenge: challenge,
  scopes: ['posts:read', 'posts:write'],
  resource: 'https://api.test/mcp',
};
const exchange = (code: string, extra: Partial<Parameters<typeof exchangeCode>[1]> = {}) => ({
  code,
  clientId: 'mcpc_a',
  redirectUri: request.redirectUri,
  codeVerifier: verifier,
  resource: request.resource,
  ...extra,
});

describe('MCP authorization', () => {
  it('registers public clients with https or loopback redirect URIs only', async () => {
    const { deps } = setup();
    const client = await registerClient(deps, { clientName: 'Desk', redirectUris: ['http://localhost:3000/cb', 'https://agent.example/cb'] });
    expect(client.clientId).toMatch(/^mcpc_/);
    await expect(registerClient(deps, { clientName: 'x', redirectUris: ['http://agent.example/cb'] })).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    await expect(registerClient(deps, { clientName: 'x', redirectUris: [] })).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
  });

  it('gives tokens for a code once, with the verifier of its challenge, and they speak for the workspace and scopes', async () => {
    const { deps } = setup();
    const { code } = await issueCode(deps, request);
    await expect(exchangeCode(deps, exchange(code, { codeVerifier: `${verifier}x` }))).rejects.toThrow(/code_verifier/);
    await expect(exchangeCode(deps, exchange(code, { redirectUri: 'http://127.0.0.1:7777/other' }))).rejects.toThrow(/redirect_uri/);
    await expect(exchangeCode(deps, exchange(code, { clientId: 'mcpc_b' }))).rejects.toThrow(/another client/);
    const tokens = await exchangeCode(deps, exchange(code));
    expect(tokens).toMatchObject({ expiresInSec: 3600, scopes: ['posts:read', 'posts:write'] });
    const { principal, resource } = await authenticateToken(deps, tokens.accessToken);
    expect(principal).toMatchObject({ kind: 'api_key', workspaceId: 1, userId: 10, scopes: ['posts:read', 'posts:write'], tier: 'pro' });
    expect(resource).toBe('https://api.test/mcp');
    // A replayed code revokes the grant and its tokens.
    await expect(exchangeCode(deps, exchange(code))).rejects.toThrow(/already used; the grant it gave is revoked/);
    await expect(authenticateToken(deps, tokens.accessToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses unknown and expired codes, and expired tokens', async () => {
    const { deps, advance } = setup();
    const first = await issueCode(deps, request);
    const tokens = await exchangeCode(deps, exchange(first.code));
    expect((await authenticateToken(deps, tokens.accessToken)).grantId).toBe(first.grantId);
    await expect(exchangeCode(deps, exchange('mcp_code_unknown'))).rejects.toThrow(/unknown/);
    const late = await issueCode(deps, request);
    advance(61);
    await expect(exchangeCode(deps, exchange(late.code))).rejects.toThrow(/expired/);
    advance(3600);
    await expect(authenticateToken(deps, tokens.accessToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('rotates refresh tokens, and revoking (grant or token) ends every token of the grant', async () => {
    const { deps } = setup();
    const { code, grantId } = await issueCode(deps, request);
    const tokens = await exchangeCode(deps, exchange(code));
    const renewed = await refreshTokens(deps, { refreshToken: tokens.refreshToken, clientId: 'mcpc_a' });
    await expect(refreshTokens(deps, { refreshToken: tokens.refreshToken, clientId: 'mcpc_a' })).rejects.toThrow(/invalid_grant/);
    await expect(authenticateToken(deps, tokens.accessToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await authenticateToken(deps, renewed.accessToken)).grantId).toBe(grantId);
    expect((await listGrants(deps, 1)).map((g) => g.id)).toEqual([grantId]);
    await revokeGrant(deps, 1, grantId);
    await expect(authenticateToken(deps, renewed.accessToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(refreshTokens(deps, { refreshToken: renewed.refreshToken, clientId: 'mcpc_a' })).rejects.toThrow(/invalid_grant/);
    expect(await listGrants(deps, 1)).toEqual([]);

    const other = await exchangeCode(deps, exchange((await issueCode(deps, request)).code));
    await revokeToken(deps, { token: other.refreshToken, clientId: 'mcpc_b' });
    expect((await authenticateToken(deps, other.accessToken)).principal.workspaceId).toBe(1);
    await revokeToken(deps, { token: other.refreshToken, clientId: 'mcpc_a' });
    await expect(authenticateToken(deps, other.accessToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('lets only members authorize, and stops tokens when the member leaves', async () => {
    const { deps, members } = setup();
    await expect(issueCode(deps, { ...request, userId: 11 })).rejects.toMatchObject({ code: 'WORKSPACE_FORBIDDEN' });
    await expect(issueCode(deps, { ...request, scopes: ['posts:fly'] })).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    await expect(issueCode(deps, { ...request, codeChallenge: 'plain' })).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    const tokens = await exchangeCode(deps, exchange((await issueCode(deps, request)).code));
    members.delete('1:10');
    await expect(authenticateToken(deps, tokens.accessToken)).rejects.toMatchObject({ code: 'WORKSPACE_FORBIDDEN' });
  });
});
