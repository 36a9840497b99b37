import type { SocialAccount } from '@spa/contracts/accounts/v1/accounts';
import { z } from 'zod';
import { accountHealthJson } from './account-health.js';
import { route } from './route.js';
import { idParam, SocialAccountSchema } from './schemas.js';

/** The public shape of a social account (identity and token state; never a token). */
const socialAccountJson = (a: SocialAccount) => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  display_name: a.displayName || null,
  avatar_url: a.avatarUrl || null,
  disconnected: a.disconnected,
  disconnected_reason: a.disconnectedReason || null,
  sandbox: a.sandbox,
  connected_at: a.connectedAt ?? a.createdAt,
  token_expires_at: a.tokenExpiresAt ?? null,
  created_at: a.createdAt,
  ...accountHealthJson(a),
});

export const accountRoutes = [
  route({
    method: 'get',
    path: '/social_accounts',
    tag: 'Accounts',
    summary: 'List connected social accounts',
    audience: 'api_key',
    scope: 'accounts:read',
    plan: 'paid',
    status: 200,
    response: z.object({ social_accounts: z.array(SocialAccountSchema), meta: z.object({ total_count: z.number().int() }) }),
    handle: async ({ clients, principal }) => {
      const { socialAccounts } = await clients.accounts.listSocialAccounts({ workspaceId: principal.workspaceId, ids: [] });
      return {
        social_accounts: socialAccounts.map(socialAccountJson),
        meta: { total_count: socialAccounts.length },
      };
    },
  }),
  route({
    method: 'get',
    path: '/social_accounts/{id}',
    tag: 'Accounts',
    summary: 'One connected social account',
    description: 'Never carries a token. 404 for an account of another workspace.',
    audience: 'api_key',
    scope: 'accounts:read',
    plan: 'paid',
    status: 200,
    params: z.object({ id: idParam }),
    response: z.object({ social_account: SocialAccountSchema }),
    handle: async ({ clients, principal, params }) => {
      const { socialAccount } = await clients.accounts.getSocialAccount({ workspaceId: principal.workspaceId, socialAccountId: params.id });
      return { social_account: socialAccountJson(socialAccount!) };
    },
  }),
];
