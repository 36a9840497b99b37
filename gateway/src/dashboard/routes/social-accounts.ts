import { AppError } from '@spa/errors';
import type { SocialAccount } from '@spa/contracts/accounts/v1/accounts';
import { PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import { idParam } from '../../routes/schemas.js';
import type { DashboardRoute, MemberContext } from '../context.js';

const SandboxBody = z.object({ platform: z.enum(PLATFORMS), username: z.string().trim().min(1).max(100) }).strict();
const IdParams = z.object({ id: idParam });
/** Credential entry (Bluesky, Telegram): the accounts service checks each with the platform. */
const CredentialBody = z.discriminatedUnion('platform', [
  z.object({ platform: z.literal('bluesky'), identifier: z.string().max(253), app_password: z.string().max(100), pds_url: z.string().max(2048).optional() }).strict(),
  z.object({ platform: z.literal('telegram'), bot_token: z.string().max(200), chat_id: z.union([z.string().max(40), z.number().int()]) }).strict(),
]);

const accountJson = (a: SocialAccount) => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  sandbox: a.sandbox,
  status: a.disconnected ? 'disconnected' : 'connected',
  display_name: a.displayName || null,
  avatar_url: a.avatarUrl || null,
  disconnected_reason: a.disconnectedReason || null,
  created_at: a.createdAt,
  connected_at: a.connectedAt || a.createdAt,
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
    method: 'post',
    path: '/social-accounts/credentials',
    status: 201,
    handle: async (ctx, req) => {
      const body = validate(CredentialBody, req.body ?? undefined, 'request body');
      const r = await ctx.clients.accounts.connectWithCredentials({
        workspaceId: ctx.workspace.id,
        platform: body.platform,
        identifier: body.platform === 'bluesky' ? body.identifier : '',
        appPassword: body.platform === 'bluesky' ? body.app_password : '',
        pdsUrl: body.platform === 'bluesky' ? (body.pds_url ?? '') : '',
        botToken: body.platform === 'telegram' ? body.bot_token : '',
        chatId: body.platform === 'telegram' ? String(body.chat_id) : '',
      });
      return { social_account_id: r.socialAccountId, reconnected: r.reconnected, ...(await page(ctx)) };
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
