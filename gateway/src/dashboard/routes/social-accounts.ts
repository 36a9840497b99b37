import { AppError } from '@spa/errors';
import type { SocialAccount } from '@spa/contracts/accounts/v1/accounts';
import { PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import { idParam } from '../../routes/schemas.js';
import type { DashboardRoute, MemberContext } from '../context.js';

const SandboxBody = z.object({ platform: z.enum(PLATFORMS), username: z.string().trim().min(1).max(100) }).strict();
const IdParams = z.object({ id: idParam });

const accountJson = (a: SocialAccount) => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  sandbox: a.sandbox,
  status: a.disconnected ? 'disconnected' : 'connected',
  created_at: a.createdAt,
});

async function page(ctx: MemberContext) {
  const { socialAccounts } = await ctx.clients.accounts.listSocialAccounts({ workspaceId: ctx.workspace.id, ids: [] });
  const template = ctx.settings.connectUrlTemplate;
  return {
    social_accounts: socialAccounts.map(accountJson),
    platforms: PLATFORMS.map((platform) => ({ platform, connect_url: template ? template.replaceAll('{platform}', platform) : null })),
    sandbox_connect: ctx.settings.sandboxAccounts,
  };
}

/** Connected accounts: list, connect (sandbox now; each platform's connect flow where one is configured), disconnect. */
export const socialAccountRoutes: DashboardRoute[] = [
  { method: 'get', path: '/social-accounts', handle: page },
  {
    method: 'post',
    path: '/social-accounts/sandbox',
    status: 201,
    handle: async (ctx, req) => {
      if (!ctx.settings.sandboxAccounts) throw new AppError('ENDPOINT_NOT_AVAILABLE', 'Sandbox accounts are turned off on this deployment');
      const body = validate(SandboxBody, req.body ?? undefined, 'request body');
      const { socialAccountId } = await ctx.clients.accounts.connectSocialAccount({ workspaceId: ctx.workspace.id, platform: body.platform, username: body.username, sandbox: true });
      return { social_account_id: socialAccountId, ...(await page(ctx)) };
    },
  },
  {
    method: 'delete',
    path: '/social-accounts/:id',
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      const { socialAccounts } = await ctx.clients.accounts.listSocialAccounts({ workspaceId: ctx.workspace.id, ids: [id] });
      if (!socialAccounts.length) throw new AppError('NOT_FOUND', `Social account ${id} not found`);
      await ctx.clients.accounts.markDisconnected({ workspaceId: ctx.workspace.id, socialAccountId: id });
      return page(ctx);
    },
  },
];
