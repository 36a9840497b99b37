import { AppError } from '@spa/errors';
import type { SocialAccount } from '@spa/contracts/accounts/v1/accounts';
import { CREDENTIAL_PLATFORMS, OAUTH_PLATFORMS } from '@spa/platforms';
import { PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import { accountHealthJson } from '../../routes/account-health.js';
import { idParam } from '../../routes/schemas.js';
import type { DashboardRoute, MemberContext } from '../context.js';

const SandboxBody = z.object({ platform: z.enum(PLATFORMS), username: z.string().trim().min(1).max(100) }).strict();
const IdParams = z.object({ id: idParam });
const ConnectBody = z.object({ platform: z.enum(PLATFORMS), instance_url: z.string().max(2048).optional() }).strict();
/** How each platform connects here: the OAuth flow, or credentials entered on the page. */
const connectKind = (platform: string): 'oauth' | 'credentials' | null =>
  OAUTH_PLATFORMS[platform as keyof typeof OAUTH_PLATFORMS] ? 'oauth' : (CREDENTIAL_PLATFORMS as readonly string[]).includes(platform) ? 'credentials' : null;
/** Credential entry (Bluesky, Telegram): the accounts service checks each with the platform. */
const CredentialBody = z.discriminatedUnion('platform', [
  z.object({ platform: z.literal('bluesky'), identifier: z.string().max(253), app_password: z.string().max(100), pds_url: z.string().max(2048).optional() }).strict(),
  z.object({ platform: z.literal('telegram'), bot_token: z.string().max(200), chat_id: z.union([z.string().max(40), z.number().int()]) }).strict(),
]);

/**
 * The accounts service records every manual disconnect as an operator's, whoever did it (a member here, the
 * API, or an operator): the page does not claim who.
 */
const disconnectedReason = (reason: string) => (reason.startsWith('Disconnected by an operator') ? 'Disconnected by hand: reconnect the account to publish again.' : reason || null);

const accountJson = (a: SocialAccount) => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  sandbox: a.sandbox,
  status: a.disconnected ? 'disconnected' : 'connected',
  display_name: a.displayName || null,
  avatar_url: a.avatarUrl || null,
  disconnected_reason: disconnectedReason(a.disconnectedReason),
  created_at: a.createdAt,
  connected_at: a.connectedAt || a.createdAt,
  token_expires_at: a.tokenExpiresAt ?? null,
  ...accountHealthJson(a),
});

async function page(ctx: MemberContext) {
  const { socialAccounts } = await ctx.clients.accounts.listSocialAccounts({ workspaceId: ctx.workspace.id, ids: [] });
  return {
    social_accounts: socialAccounts.map(accountJson),
    platforms: PLATFORMS.map((platform) => ({ platform, connect: connectKind(platform) })),
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
    // Starts the OAuth flow for the session's workspace: the page then sends the browser to authorization_url.
    method: 'post',
    path: '/social-accounts/connect',
    status: 201,
    handle: async (ctx, req) => {
      const body = validate(ConnectBody, req.body ?? undefined, 'request body');
      const r = await ctx.clients.accounts.startConnect({ workspaceId: ctx.workspace.id, platform: body.platform, instanceUrl: body.instance_url ?? '' });
      return { authorization_url: r.authorizationUrl, expires_at: r.expiresAt };
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
      // Revokes at the platform where it can, deletes the stored credentials, marks it disconnected.
      await ctx.clients.accounts.disconnectSocialAccount({ workspaceId: ctx.workspace.id, socialAccountId: id });
      return page(ctx);
    },
  },
];
