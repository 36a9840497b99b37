import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PromiseClient } from '@spa/grpc';

/** spa-admin account commands for connecting real accounts (the dashboard's connect buttons). */

type Flags = Record<string, string | boolean | undefined>;
type Accounts = PromiseClient<AccountsServiceClient>;

/** Flags these commands add. */
export const ACCOUNT_FLAGS = ['instance', 'account', 'identifier', 'app-password', 'pds', 'bot-token', 'chat'];

export const ACCOUNT_USAGE = `  account connect-url --workspace W --platform P [--instance URL]   (OAuth; --instance for mastodon)
  account disconnect --account A [--workspace W]`;

function usage(message: string): Error {
  return Object.assign(new TypeError(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
}
function flag(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw usage(`--${name} is required`);
  return v;
}
function id(flags: Flags, name: string, optional = false): number {
  if (optional && flags[name] === undefined) return 0;
  const v = flag(flags, name);
  if (!/^\d+$/.test(v)) throw usage(`--${name} must be a positive integer`);
  return Number(v);
}

export const ACCOUNT_COMMANDS: Record<string, (accounts: Accounts, flags: Flags) => Promise<unknown>> = {
  'account connect-url': async (a, f) => {
    const r = await a.startConnect({ workspaceId: id(f, 'workspace'), platform: flag(f, 'platform'), instanceUrl: typeof f.instance === 'string' ? f.instance : '' });
    return { authorization_url: r.authorizationUrl, expires_at: r.expiresAt };
  },
  'account disconnect': async (a, f) => {
    const socialAccountId = id(f, 'account');
    const r = await a.disconnectSocialAccount({ workspaceId: id(f, 'workspace', true), socialAccountId });
    return { social_account_id: socialAccountId, disconnected: true, revoked_at_platform: r.revokedAtPlatform };
  },
};
