import { McpAuthorizationServiceService, type McpGrant as McpGrantMessage, type McpTokens as McpTokensMessage } from '@spa/contracts/accounts/v1/mcp_authorization';
import { bindService, type ServiceBinding } from '@spa/grpc';
import {
  authenticateToken,
  CODE_TTL_SEC,
  exchangeCode,
  getClient,
  issueCode,
  listGrants,
  refreshTokens,
  registerClient,
  revokeGrant,
  revokeToken,
  type McpAuthorizationDeps,
  type McpClient,
  type McpGrant,
  type McpTokens,
} from '../domain/mcp-authorization.js';
import { principalMessage } from './handlers.js';

const clientMessage = (c: McpClient) => ({ clientId: c.clientId, clientName: c.clientName, redirectUris: c.redirectUris, createdAt: c.createdAt.toISOString() });

const grantMessage = (g: McpGrant): McpGrantMessage => ({
  id: g.id,
  clientId: g.clientId,
  clientName: g.clientName,
  scopes: g.scopes,
  userId: g.userId,
  createdAt: g.createdAt.toISOString(),
  lastUsedAt: g.lastUsedAt?.toISOString() ?? '',
  redirectUri: g.redirectUri,
});

const tokensMessage = (t: McpTokens): McpTokensMessage => ({ accessToken: t.accessToken, refreshToken: t.refreshToken, expiresInSec: t.expiresInSec, scopes: t.scopes, grantId: t.grantId });

/** gRPC transport of the MCP authorization (served by the accounts process beside AccountsService). */
export function mcpAuthorizationService(deps: McpAuthorizationDeps): ServiceBinding {
  return bindService('accounts.v1.McpAuthorizationService', McpAuthorizationServiceService, {
    registerClient: async (req) => ({ client: clientMessage(await registerClient(deps, { clientName: req.clientName, redirectUris: req.redirectUris })) }),
    getClient: async (req) => ({ client: clientMessage(await getClient(deps, req.clientId)) }),
    issueCode: async (req) => {
      const { code, grantId } = await issueCode(deps, {
        workspaceId: req.workspaceId,
        userId: req.userId,
        clientId: req.clientId,
        clientName: req.clientName,
        redirectUri: req.redirectUri,
        codeChallenge: req.codeChallenge,
        scopes: req.scopes,
        resource: req.resource,
      });
      return { code, grantId, expiresInSec: CODE_TTL_SEC };
    },
    exchangeCode: async (req) => ({
      tokens: tokensMessage(await exchangeCode(deps, { code: req.code, clientId: req.clientId, redirectUri: req.redirectUri, codeVerifier: req.codeVerifier, resource: req.resource })),
    }),
    refreshTokens: async (req) => ({ tokens: tokensMessage(await refreshTokens(deps, { refreshToken: req.refreshToken, clientId: req.clientId })) }),
    authenticateToken: async (req) => {
      const { principal, grantId, resource } = await authenticateToken(deps, req.token);
      return { principal: principalMessage(principal), grantId, resource };
    },
    listGrants: async (req) => ({ grants: (await listGrants(deps, req.workspaceId)).map(grantMessage) }),
    revokeGrant: async (req) => {
      await revokeGrant(deps, req.workspaceId, req.grantId);
      return {};
    },
    revokeToken: async (req) => {
      await revokeToken(deps, { token: req.token, clientId: req.clientId });
      return {};
    },
  });
}
