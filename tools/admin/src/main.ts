#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { env, loadConfig, z } from '@spa/config';
import { AppError } from '@spa/errors';
import { createClient, type PromiseClient } from '@spa/grpc';
import { USER_COMMANDS, USER_FLAGS, USER_USAGE } from './user-commands.js';
import { WEBHOOK_COMMANDS, WEBHOOK_FLAGS, WEBHOOK_USAGE } from './webhook-commands.js';
import { ACCOUNT_COMMANDS, ACCOUNT_FLAGS, ACCOUNT_USAGE } from './account-commands.js';
import { helpText } from './help.js';
import { SITE_COMMANDS, SITE_FLAGS, SITE_USAGE } from './site-commands.js';

/**
 * spa-admin: the operators' stand-in for the dashboard. Talks gRPC to the services and prints
 * JSON on stdout; on error prints a message on stderr and exits non-zero (2 for usage errors).
 */

type Accounts = PromiseClient<AccountsServiceClient>;
type Flags = Record<string, string | boolean | undefined>;

class UsageError extends Error {}

const USAGE = `usage: spa-admin <command> [flags]
  workspace create --name N --tier free|starter|pro|team [--status active|trialing|past_due|canceled]
  workspace set-review --workspace W --required true|false
  user create --email E
  member add|remove --workspace W --user U
  subscription set --workspace W [--tier T] [--status S] [--period-end ISO-DATE-TIME] [--cancel-at-period-end true|false]
  subscription show --workspace W
  key create --workspace W [--user U] --scopes s1,s2|all
  key revoke --workspace W
  site create --workspace W --name N --url U [--cms wordpress|ghost|webflow|shopify|squarespace|wix|custom]
${SITE_USAGE}
  account connect --workspace W --platform P --username U [--sandbox]
  account connect --workspace W --platform bluesky --identifier HANDLE [--app-password P | env SPA_APP_PASSWORD] [--pds URL]
  account connect --workspace W --platform telegram --chat CHAT [--bot-token T | env SPA_BOT_TOKEN]
${ACCOUNT_USAGE}
${WEBHOOK_USAGE}
${USER_USAGE}
environment: ACCOUNTS_ADDR (default 127.0.0.1:50051)`;

function str(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}
function optStr(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}
function int(flags: Flags, name: string): number {
  const v = str(flags, name);
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a positive integer`);
  return Number(v);
}
function bool(flags: Flags, name: string): boolean {
  const v = str(flags, name);
  if (v !== 'true' && v !== 'false') throw new UsageError(`--${name} must be true or false`);
  return v === 'true';
}

const COMMANDS: Record<string, (a: Accounts, f: Flags) => Promise<unknown>> = {
  'workspace create': async (a, f) => {
    const r = await a.createWorkspace({ name: str(f, 'name'), tier: str(f, 'tier'), subscriptionStatus: optStr(f, 'status') ?? 'active' });
    return { workspace_id: r.workspaceId, owner_user_id: r.ownerUserId };
  },
  'workspace set-review': async (a, f) => {
    const r = await a.setReviewRequired({ workspaceId: int(f, 'workspace'), required: bool(f, 'required') });
    return { workspace_id: r.workspace?.id, review_required: r.workspace?.reviewRequired };
  },
  'user create': async (a, f) => ({ user_id: (await a.createUser({ email: str(f, 'email') })).userId }),
  'member add': async (a, f) => {
    await a.addMember({ workspaceId: int(f, 'workspace'), userId: int(f, 'user') });
    return { workspace_id: int(f, 'workspace'), user_id: int(f, 'user'), member: true };
  },
  'member remove': async (a, f) => {
    await a.removeMember({ workspaceId: int(f, 'workspace'), userId: int(f, 'user') });
    return { workspace_id: int(f, 'workspace'), user_id: int(f, 'user'), member: false };
  },
  'subscription set': async (a, f) => {
    const r = await a.setSubscription({
      workspaceId: int(f, 'workspace'),
      tier: optStr(f, 'tier'),
      status: optStr(f, 'status'),
      currentPeriodEnd: optStr(f, 'period-end'),
      cancelAtPeriodEnd: f['cancel-at-period-end'] === undefined ? undefined : bool(f, 'cancel-at-period-end'),
    });
    return { workspace_id: r.workspace?.id, tier: r.workspace?.tier, status: r.workspace?.subscriptionStatus };
  },
  'subscription show': async (a, f) => {
    const { subscription: s, timezone } = await a.getSubscription({ workspaceId: int(f, 'workspace') });
    return {
      id: s?.id,
      tier: s?.tier,
      status: s?.status,
      current_period_end: s?.currentPeriodEnd,
      cancel_at_period_end: s?.cancelAtPeriodEnd,
      max_schedule_days: s?.maxScheduleDays,
      timezone,
    };
  },
  'key create': async (a, f) => {
    const r = await a.createApiKey({
      workspaceId: int(f, 'workspace'),
      userId: f.user === undefined ? undefined : int(f, 'user'),
      scopes: str(f, 'scopes').split(','),
    });
    return { key_id: r.keyId, api_key: r.apiKey };
  },
  'key revoke': async (a, f) => ({ key_id: (await a.revokeApiKey({ workspaceId: int(f, 'workspace') })).keyId, revoked: true }),
  'site create': async (a, f) => {
    const r = await a.createSite({ workspaceId: int(f, 'workspace'), name: str(f, 'name'), url: str(f, 'url'), cms: optStr(f, 'cms') });
    return { site_id: r.siteId, token: r.token };
  },
  'account connect': async (a, f) => {
    if (f.sandbox !== true && (f.platform === 'bluesky' || f.platform === 'telegram')) {
      // Real accounts of the credential platforms: checked with the platform, stored sealed.
      const r = await a.connectWithCredentials({
        workspaceId: int(f, 'workspace'),
        platform: f.platform,
        identifier: typeof f.identifier === 'string' ? f.identifier : '',
        appPassword: typeof f['app-password'] === 'string' ? f['app-password'] : (process.env.SPA_APP_PASSWORD ?? ''),
        pdsUrl: typeof f.pds === 'string' ? f.pds : '',
        botToken: typeof f['bot-token'] === 'string' ? f['bot-token'] : (process.env.SPA_BOT_TOKEN ?? ''),
        chatId: typeof f.chat === 'string' ? f.chat : '',
      });
      return { social_account_id: r.socialAccountId, platform: r.platform, username: r.username, reconnected: r.reconnected };
    }
    const r = await a.connectSocialAccount({
      workspaceId: int(f, 'workspace'),
      platform: str(f, 'platform'),
      username: str(f, 'username'),
      sandbox: f.sandbox === true,
    });
    return { social_account_id: r.socialAccountId };
  },
};

const STRING_FLAGS = [
  'name',
  'tier',
  'status',
  'period-end',
  'cancel-at-period-end',
  'workspace',
  'required',
  'email',
  'user',
  'scopes',
  'url',
  'platform',
  'username',
  ...WEBHOOK_FLAGS,
  ...USER_FLAGS,
  ...ACCOUNT_FLAGS,
  ...SITE_FLAGS,
];
const OPTIONS: Record<string, { type: 'string' | 'boolean' }> = {
  ...Object.fromEntries(STRING_FLAGS.map((n) => [n, { type: 'string' as const }])),
  sandbox: { type: 'boolean' },
  help: { type: 'boolean' },
};

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: OPTIONS,
  });
  const flags = values as Flags;
  if (flags.help || positionals[0] === 'help') {
    const help = helpText(USAGE, positionals);
    if (help === undefined) throw new UsageError(`unknown command: ${positionals.join(' ')}`);
    process.stdout.write(help);
    return 0;
  }
  // Commands are two words (`key create`) or three (`site rule add`).
  const command = { ...COMMANDS, ...WEBHOOK_COMMANDS, ...USER_COMMANDS, ...ACCOUNT_COMMANDS, ...SITE_COMMANDS }[positionals.join(' ')];
  if (!command || positionals.length < 2) throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
  const config = loadConfig(z.object({ ACCOUNTS_ADDR: env.address('127.0.0.1:50051') }));
  const accounts = createClient(AccountsServiceClient, config.ACCOUNTS_ADDR, { deadlineMs: 10_000 });
  try {
    const out = await command(accounts, flags);
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  } finally {
    accounts.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`${err instanceof Error && err.message ? `spa-admin: ${err.message}\n` : ''}${USAGE}\n`);
      process.exit(2);
    }
    if (err instanceof AppError) {
      process.stderr.write(`spa-admin: ${err.code}: ${err.message}${err.details?.length ? `\n  ${err.details.join('\n  ')}` : ''}\n`);
    } else {
      process.stderr.write(`spa-admin: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    process.exit(1);
  },
);
