import { SCOPES } from '@spa/vocabulary';
import type { Request } from 'express';

/** This server's origin as the client reached it (behind trusted proxies: their forwarded protocol and host). */
export const originOf = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/** The protected resource MCP tokens are for (RFC 8707): the MCP endpoint. */
export const mcpResourceOf = (req: Request): string => `${originOf(req)}/mcp`;

export const PRM_PATH = '/.well-known/oauth-protected-resource';

/** The challenge of a 401 from /mcp: where a client finds how to get a token (RFC 9728). */
export const bearerChallenge = (req: Request, error?: 'invalid_token'): string =>
  `Bearer resource_metadata="${originOf(req)}${PRM_PATH}/mcp"${error ? `, error="${error}"` : ''}, scope="${SCOPES.join(' ')}"`;

/** Protected resource metadata (RFC 9728) of /mcp. */
export const protectedResourceMetadata = (req: Request) => ({
  resource: mcpResourceOf(req),
  authorization_servers: [originOf(req)],
  scopes_supported: [...SCOPES],
  bearer_methods_supported: ['header'],
  resource_name: 'Social Publishing and AI Content API (MCP)',
  resource_documentation: `${originOf(req)}/docs`,
});

/** Authorization server metadata (RFC 8414): the gateway is the authorization server of its MCP endpoint. */
export const authorizationServerMetadata = (req: Request) => {
  const origin = originOf(req);
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
};
