import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { DashboardServiceClient } from '@spa/contracts/accounts/v1/dashboard';
import { env, loadConfig, z } from '@spa/config';
import { AppError } from '@spa/errors';
import { createClient, type PromiseClient } from '@spa/grpc';

/** spa-admin user commands: dashboard users who sign in with a password, and their workspaces. */

type Flags = Record<string, string | boolean | undefined>;
type Accounts = PromiseClient<AccountsServiceClient>;
type Dashboard = PromiseClient<DashboardServiceClient>;

/** Flags the user commands add (--email, --workspace and --user are main's). */
export const USER_FLAGS = ['password'];

export const USER_USAGE = `  user invite --email E --workspace W [--password P]   (creates the user when new; the password lets them sign in to the dashboard)
  user set-password --email E --password P             (P: 10 to 256 characters; SPA_ADMIN_PASSWORD may carry it instead)
  user show --email E`;

/** A usage error, reported by main like parseArgs' own (exit code 2). */
function usage(message: string): Error {
  return Object.assign(new TypeError(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
}
function flag(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw usage(`--${name} is required`);
  return v;
}
function id(flags: Flags, name: string): number {
  const v = flag(flags, name);
  if (!/^\d+$/.test(v)) throw usage(`--${name} must be a positive integer`);
  return Number(v);
}
/** --password, or SPA_ADMIN_PASSWORD (kept out of the process list and shell history). */
function password(flags: Flags, required: boolean): string | undefined {
  const v = typeof flags.password === 'string' && flags.password !== '' ? flags.password : process.env.SPA_ADMIN_PASSWORD || undefined;
  if (required && !v) throw usage('--password (or SPA_ADMIN_PASSWORD) is required');
  return v;
}

/** Runs one call with a DashboardService client to ACCOUNTS_ADDR, closed afterwards. */
async function withDashboard<T>(call: (d: Dashboard) => Promise<T>): Promise<T> {
  const config = loadConfig(z.object({ ACCOUNTS_ADDR: env.address('127.0.0.1:50051') }));
  const client = createClient(DashboardServiceClient, config.ACCOUNTS_ADDR, { deadlineMs: 10_000 });
  try {
    return await call(client);
  } finally {
    client.close();
  }
}

/** The user of this email, created when there is none. */
async function findOrCreate(accounts: Accounts, dashboard: Dashboard, email: string): Promise<{ userId: number; created: boolean }> {
  try {
    const { user } = await dashboard.findUserByEmail({ email });
    if (user) return { userId: user.id, created: false };
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'NOT_FOUND') throw err;
  }
  return { userId: (await accounts.createUser({ email })).userId, created: true };
}

export const USER_COMMANDS: Record<string, (accounts: Accounts, flags: Flags) => Promise<unknown>> = {
  'user invite': (accounts, f) =>
    withDashboard(async (d) => {
      const workspaceId = id(f, 'workspace');
      const pw = password(f, false);
      const { userId, created } = await findOrCreate(accounts, d, flag(f, 'email'));
      if (pw !== undefined) await d.setPassword({ userId, password: pw });
      await accounts.addMember({ workspaceId, userId });
      return { user_id: userId, created, workspace_id: workspaceId, member: true, password_set: pw !== undefined };
    }),
  'user set-password': (_, f) =>
    withDashboard(async (d) => {
      const pw = password(f, true)!;
      const { user } = await d.findUserByEmail({ email: flag(f, 'email') });
      if (!user) throw new AppError('NOT_FOUND', 'User not found');
      await d.setPassword({ userId: user.id, password: pw });
      return { user_id: user.id, password_set: true };
    }),
  'user show': (_, f) =>
    withDashboard(async (d) => {
      const { user } = await d.findUserByEmail({ email: flag(f, 'email') });
      if (!user) throw new AppError('NOT_FOUND', 'User not found');
      const { workspaces } = await d.listUserWorkspaces({ userId: user.id });
      return { user_id: user.id, email: user.email, has_password: user.hasPassword, workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, tier: w.tier })) };
    }),
};
