import { SCOPES } from '@spa/vocabulary';
import type { ApiKeyInfo } from '@spa/contracts/accounts/v1/dashboard';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import type { DashboardRoute, MemberContext } from '../context.js';

const CreateBody = z.object({ scopes: z.array(z.enum(SCOPES)).min(1, 'choose at least one scope').max(SCOPES.length) }).strict();

const keyJson = (k: ApiKeyInfo) => ({
  id: k.id,
  prefix: k.prefix || null,
  scopes: k.scopes,
  created_by: { user_id: k.createdByUserId, email: k.createdByEmail || null },
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt ?? null,
});

async function current(ctx: MemberContext) {
  const { apiKey } = await ctx.clients.dashboard.getActiveApiKey({ workspaceId: ctx.workspace.id });
  return {
    api_key: apiKey ? keyJson(apiKey) : null,
    available_scopes: SCOPES,
    // The one-key rule: a workspace has at most one active key; a new one needs the old one revoked.
    one_key_rule: true,
    api_access: ctx.workspace.tier !== 'free',
  };
}

/** The API key page: the workspace's one active key (never its secret, except once at creation). */
export const apiKeyRoutes: DashboardRoute[] = [
  { method: 'get', path: '/api-key', handle: (ctx) => current(ctx) },
  {
    method: 'post',
    path: '/api-key',
    status: 201,
    handle: async (ctx, req) => {
      const { scopes } = validate(CreateBody, req.body ?? undefined, 'request body');
      const created = await ctx.clients.accounts.createApiKey({ workspaceId: ctx.workspace.id, userId: ctx.user.id, scopes });
      return { ...(await current(ctx)), secret: created.apiKey };
    },
  },
  {
    method: 'delete',
    path: '/api-key',
    handle: async (ctx) => {
      const { keyId } = await ctx.clients.accounts.revokeApiKey({ workspaceId: ctx.workspace.id });
      return { revoked_key_id: keyId, ...(await current(ctx)) };
    },
  },
];
