import { invalidParameters, notFound } from '@spa/errors';
import type { AccountsDeps } from './ports.js';
import { getWorkspace } from './workspaces.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createUser(deps: AccountsDeps, email: string): Promise<number> {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized)) throw invalidParameters(['email is not a valid address']);
  const id = await deps.ids.next('users');
  await deps.users.insert({ id, email: normalized, createdAt: deps.clock.now() });
  return id;
}

export async function addMember(deps: AccountsDeps, workspaceId: number, userId: number): Promise<void> {
  await getWorkspace(deps, workspaceId);
  if (!(await deps.users.get(userId))) throw notFound(`User ${userId}`);
  await deps.memberships.add(workspaceId, userId);
}

export async function removeMember(deps: AccountsDeps, workspaceId: number, userId: number): Promise<void> {
  await getWorkspace(deps, workspaceId);
  if (!(await deps.memberships.remove(workspaceId, userId))) throw notFound(`Membership of user ${userId}`);
}
