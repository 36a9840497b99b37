import { invalidParameters, notFound } from '@spa/errors';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionStatus, type Tier } from '@spa/vocabulary';
import type { Workspace } from './model.js';
import type { AccountsDeps } from './ports.js';

function checkTier(tier: string): Tier {
  if (!(TIERS as readonly string[]).includes(tier)) throw invalidParameters([`tier must be one of ${TIERS.join(', ')}`]);
  return tier as Tier;
}

function checkStatus(status: string): SubscriptionStatus {
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(status)) {
    throw invalidParameters([`status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`]);
  }
  return status as SubscriptionStatus;
}

/** Creates a workspace with its owner user (a member from the start) and its subscription. */
export async function createWorkspace(
  deps: AccountsDeps,
  input: { name: string; tier: string; subscriptionStatus?: string },
): Promise<{ workspaceId: number; ownerUserId: number }> {
  const name = input.name.trim();
  if (!name) throw invalidParameters(['name must not be empty']);
  const tier = checkTier(input.tier);
  const subscriptionStatus = checkStatus(input.subscriptionStatus || 'active');
  const now = deps.clock.now();
  const workspaceId = await deps.store.nextId('workspaces');
  const ownerUserId = await deps.store.nextId('users');
  await deps.store.insertUser({ id: ownerUserId, email: `owner+${workspaceId}@workspace.invalid`, createdAt: now });
  await deps.store.insertWorkspace({ id: workspaceId, name, tier, subscriptionStatus, reviewRequired: false, ownerUserId, createdAt: now });
  await deps.store.addMembership(workspaceId, ownerUserId);
  return { workspaceId, ownerUserId };
}

/** The workspace, or NOT_FOUND. */
export async function getWorkspace(deps: AccountsDeps, workspaceId: number): Promise<Workspace> {
  const workspace = await deps.store.getWorkspace(workspaceId);
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  return workspace;
}

export async function setSubscription(
  deps: AccountsDeps,
  input: { workspaceId: number; tier?: string | undefined; status?: string | undefined },
): Promise<Workspace> {
  if (input.tier === undefined && input.status === undefined) throw invalidParameters(['give tier, status or both']);
  const patch = {
    ...(input.tier !== undefined ? { tier: checkTier(input.tier) } : {}),
    ...(input.status !== undefined ? { subscriptionStatus: checkStatus(input.status) } : {}),
  };
  const updated = await deps.store.updateWorkspace(input.workspaceId, patch);
  if (!updated) throw notFound(`Workspace ${input.workspaceId}`);
  return updated;
}

export async function setReviewRequired(deps: AccountsDeps, workspaceId: number, required: boolean): Promise<Workspace> {
  const updated = await deps.store.updateWorkspace(workspaceId, { reviewRequired: required });
  if (!updated) throw notFound(`Workspace ${workspaceId}`);
  return updated;
}
