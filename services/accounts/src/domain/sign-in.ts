import { AppError, invalidParameters, notFound } from '@spa/errors';
import type { DashboardDeps } from './dashboard-ports.js';
import type { User, Workspace } from './model.js';

/** Length bounds of a password (NIST SP 800-63B: at least 8; we ask 10, and cap what argon2 is fed). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

export interface UserView extends User {
  hasPassword: boolean;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const wrongCredentials = () => new AppError('UNAUTHORIZED', 'Wrong email or password');

/** A hash verified when the email is unknown, so that an unknown email takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

export async function setPassword(deps: DashboardDeps, userId: number, password: string): Promise<void> {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN) problems.push(`password must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) problems.push(`password must be at most ${PASSWORD_MAX} characters`);
  if (problems.length) throw invalidParameters(problems);
  if (!(await deps.users.get(userId))) throw notFound(`User ${userId}`);
  await deps.dashboard.setPasswordHash(userId, await deps.passwords.hash(password), deps.clock.now());
}

/** The user whose email and password these are; UNAUTHORIZED alike for an unknown email, no password or a wrong one. */
export async function verifyPassword(deps: DashboardDeps, email: string, password: string): Promise<UserView> {
  if (!email || !password || password.length > PASSWORD_MAX) throw wrongCredentials();
  const user = await deps.dashboard.findUserByEmail(normalizeEmail(email));
  const hash = user ? await deps.dashboard.getPasswordHash(user.id) : null;
  if (!user || !hash) {
    decoy ??= deps.passwords.hash('decoy password, never a real one');
    await deps.passwords.verify(await decoy, password);
    throw wrongCredentials();
  }
  if (!(await deps.passwords.verify(hash, password))) throw wrongCredentials();
  return { ...user, hasPassword: true };
}

export async function findUserByEmail(deps: DashboardDeps, email: string): Promise<UserView> {
  const user = await deps.dashboard.findUserByEmail(normalizeEmail(email));
  if (!user) throw notFound('User');
  return { ...user, hasPassword: (await deps.dashboard.getPasswordHash(user.id)) !== null };
}

export async function listUserWorkspaces(deps: DashboardDeps, userId: number): Promise<{ user: UserView; workspaces: Workspace[] }> {
  const user = await deps.users.get(userId);
  if (!user) throw notFound(`User ${userId}`);
  const [ids, hash] = await Promise.all([deps.dashboard.listMemberWorkspaceIds(userId), deps.dashboard.getPasswordHash(userId)]);
  const workspaces = await Promise.all(ids.map((id) => deps.workspaces.get(id)));
  return { user: { ...user, hasPassword: hash !== null }, workspaces: workspaces.filter((w): w is Workspace => w !== null) };
}
