import { z } from 'zod';
import { validate } from '../../http/validate.js';
import { AuthorizationRefused, asInvalid, checkAuthorizationRequest, redirectWith } from '../../mcp/oauth/authorization-request.js';
import { mcpResourceOf, originOf } from '../../mcp/oauth/metadata.js';
import type { DashboardRoute, MemberContext } from '../context.js';
import type { Request } from 'express';

const ConsentBody = z.object({ request: z.record(z.string(), z.string()), decision: z.enum(['allow', 'deny']) }).strict();
const GrantParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The authorization request the consent page shows, checked as the authorization endpoint checked it. */
async function checked(ctx: MemberContext, req: Request, query: Record<string, unknown>) {
  try {
    return await checkAuthorizationRequest(ctx.clients, query, mcpResourceOf(req));
  } catch (err) {
    throw err instanceof AuthorizationRefused ? asInvalid(err) : err;
  }
}

async function grants(ctx: MemberContext) {
  const { grants: list } = await ctx.clients.mcpAuthorization.listGrants({ workspaceId: ctx.workspace.id });
  return {
    grants: list.map((g) => ({
      id: g.id,
      client_id: g.clientId,
      client_name: g.clientName,
      redirect_host: URL.canParse(g.redirectUri) ? new URL(g.redirectUri).host : g.redirectUri,
      scopes: g.scopes,
      authorized_by_user_id: g.userId,
      created_at: g.createdAt,
      last_used_at: g.lastUsedAt || null,
    })),
  };
}

/** MCP clients (AI agents) signing in with OAuth: the consent page's endpoints, and the list of authorized clients. */
export const mcpClientRoutes: DashboardRoute[] = [
  {
    method: 'get',
    path: '/oauth/request',
    handle: async (ctx, req) => {
      const request = await checked(ctx, req, req.query);
      return {
        client: { client_id: request.client.clientId, client_name: request.client.clientName, redirect_host: new URL(request.redirectUri).host },
        scopes: request.scopes,
        resource: request.resource,
        workspace: { id: ctx.workspace.id, name: ctx.workspace.name, tier: ctx.workspace.tier },
      };
    },
  },
  {
    method: 'post',
    path: '/oauth/consent',
    handle: async (ctx, req) => {
      const body = validate(ConsentBody, req.body ?? undefined, 'request body');
      const request = await checked(ctx, req, body.request);
      const iss = originOf(req);
      if (body.decision === 'deny') {
        return { redirect_to: redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The member declined', state: request.state, iss }) };
      }
      const { code } = await ctx.clients.mcpAuthorization.issueCode({
        workspaceId: ctx.workspace.id,
        userId: ctx.user.id,
        clientId: request.client.clientId,
        clientName: request.client.clientName,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        scopes: request.scopes,
        resource: request.resource,
      });
      return { redirect_to: redirectWith(request.redirectUri, { code, state: request.state, iss }) };
    },
  },
  { method: 'get', path: '/mcp-clients', handle: (ctx) => grants(ctx) },
  {
    method: 'delete',
    path: '/mcp-clients/:id',
    handle: async (ctx, req) => {
      const { id } = validate(GrantParams, req.params, 'path parameters');
      await ctx.clients.mcpAuthorization.revokeGrant({ workspaceId: ctx.workspace.id, grantId: id });
      return grants(ctx);
    },
  },
];
