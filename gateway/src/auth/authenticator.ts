import { createHash } from 'node:crypto';
import { CredentialKind, type Principal as PrincipalMessage } from '@spa/contracts/accounts/v1/accounts';
import { AppError } from '@spa/errors';
import type { Scope, SubscriptionStatus, Tier } from '@spa/vocabulary';
import { LRUCache } from 'lru-cache';
import type { Clients } from '../clients.js';

/** Access tokens of MCP clients (OAuth), as the accounts service issues them. */
export const MCP_TOKEN_PREFIX = 'mcp_at_';

export interface Principal {
  kind: 'api_key' | 'site_token';
  workspaceId: number;
  userId: number;
  /** The rate-limit identity of the credential: one per API key or site token. */
  tokenId: string;
  siteId: number;
  scopes: ReadonlySet<Scope>;
  tier: Tier;
  subscriptionStatus: SubscriptionStatus;
  /** An OAuth access token of an MCP client: its grant, and the MCP endpoint it was issued for. */
  mcp?: { grantId: number; resource: string };
}

type Outcome = { principal: Principal } | { error: AppError };

function toPrincipal(p: PrincipalMessage): Principal {
  const kind = p.kind === CredentialKind.CREDENTIAL_KIND_SITE_TOKEN ? 'site_token' : 'api_key';
  return {
    kind,
    workspaceId: p.workspaceId,
    userId: p.userId,
    tokenId: kind === 'api_key' ? `key:${p.keyId}` : `site:${p.siteId}`,
    siteId: p.siteId,
    scopes: new Set(p.scopes as Scope[]),
    tier: p.tier as Tier,
    subscriptionStatus: p.subscriptionStatus as SubscriptionStatus,
  };
}

/**
 * Resolves bearer tokens through the accounts service, caching each outcome (success or refusal)
 * for a few seconds so that the hot path makes no gRPC call; concurrent lookups of one token share
 * one call. The TTL bounds how long a revoked key keeps working.
 */
export class Authenticator {
  private readonly cache: LRUCache<string, Outcome>;

  constructor(clients: Clients, ttlMs: number) {
    this.cache = new LRUCache<string, Outcome>({
      max: 10_000,
      ttl: Math.max(ttlMs, 1),
      fetchMethod: async (_hash, _stale, { context }) => {
        try {
          const token = context as string;
          if (token.startsWith(MCP_TOKEN_PREFIX)) {
            const { principal, grantId, resource } = await clients.mcpAuthorization.authenticateToken({ token });
            if (!principal) return { error: new AppError('UNAUTHORIZED', 'Missing, expired or revoked access token') };
            return { principal: { ...toPrincipal(principal), tokenId: `mcp:${grantId}`, mcp: { grantId, resource } } };
          }
          const { principal } = await clients.accounts.authenticate({ token });
          if (!principal) return { error: new AppError('UNAUTHORIZED', 'Missing or invalid API key') };
          return { principal: toPrincipal(principal) };
        } catch (err) {
          if (err instanceof AppError && (err.code === 'UNAUTHORIZED' || err.code === 'WORKSPACE_FORBIDDEN')) return { error: err };
          throw err;
        }
      },
    });
  }

  /**
   * The principal of an `Authorization: Bearer` header. An MCP client's access token is taken only where
   * `mcp` says so (the MCP endpoint and the REST requests its tool calls become): it was issued for /mcp.
   */
  async authenticate(authorization: string | undefined, opts: { mcp?: boolean } = {}): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1]) {
      throw new AppError('UNAUTHORIZED', 'Missing or invalid API key: send it as "Authorization: Bearer <API_KEY>"');
    }
    const token = match[1];
    const hash = createHash('sha256').update(token).digest('base64url');
    const outcome = await this.cache.fetch(hash, { context: token });
    if (!outcome) throw new AppError('UNAUTHORIZED', 'Missing or invalid API key');
    if ('error' in outcome) throw outcome.error;
    if (outcome.principal.mcp && !opts.mcp) throw new AppError('UNAUTHORIZED', 'This access token was issued for the MCP endpoint (/mcp); the REST API takes API keys');
    return outcome.principal;
  }
}
