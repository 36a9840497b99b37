import { invalidParameters } from '@spa/errors';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import type { SocialAccount } from './model.js';
import type { AccountsDeps } from './ports.js';
import { createDefaultSchedule } from './posting-schedules.js';
import { assertWorkspace } from './workspaces.js';

export async function connectSocialAccount(
  deps: AccountsDeps,
  input: { workspaceId: number; platform: string; username: string; sandbox: boolean },
): Promise<number> {
  await assertWorkspace(deps, input.workspaceId);
  const problems: string[] = [];
  if (!(PLATFORMS as readonly string[]).includes(input.platform)) problems.push(`platform must be one of ${PLATFORMS.join(', ')}`);
  if (!input.username.trim()) problems.push('username must not be empty');
  if (problems.length) throw invalidParameters(problems);
  const id = await deps.store.nextId('social_accounts');
  await deps.store.insertSocialAccount({
    id,
    workspaceId: input.workspaceId,
    platform: input.platform as Platform,
    username: input.username.trim(),
    sandbox: input.sandbox,
    disconnected: false,
    createdAt: deps.clock.now(),
  });
  await createDefaultSchedule(deps, input.workspaceId, id);
  return id;
}

export function listSocialAccounts(deps: AccountsDeps, workspaceId: number, ids: number[] = []): Promise<SocialAccount[]> {
  return deps.store.listSocialAccounts(workspaceId, ids.length ? ids : undefined);
}
