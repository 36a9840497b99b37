import { invalidParameters, notFound } from '@spa/errors';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionStatus, type Tier } from '@spa/vocabulary';
import type { Workspace } from './model.js';
import type { AccountsDeps, WorkspacePatch } from './ports.js';

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
export async function createWorkspace(deps: AccountsDeps, input: { name: string; tier: string; subscriptionStatus?: string }): Promise<{ workspaceId: number; ownerUserId: number }> {
  const name = input.name.trim();
  if (!name) throw invalidParameters(['name must not be empty']);
  const tier = checkTier(input.tier);
  const subscriptionStatus = checkStatus(input.subscriptionStatus || 'active');
  const now = deps.clock.now();
  const workspaceId = await deps.ids.next('workspaces');
  const ownerUserId = await deps.ids.next('users');
  await deps.users.insert({ id: ownerUserId, email: `owner+${workspaceId}@workspace.invalid`, createdAt: now });
  await deps.workspaces.insert({
    id: workspaceId,
    name,
    tier,
    subscriptionStatus,
    reviewRequired: false,
    ownerUserId,
    createdAt: now,
    cancelAtPeriodEnd: false,
  });
  await deps.memberships.add(workspaceId, ownerUserId);
  return { workspaceId, ownerUserId };
}

/** The workspace, or NOT_FOUND. */
export async function getWorkspace(deps: AccountsDeps, workspaceId: number): Promise<Workspace> {
  const workspace = await deps.workspaces.get(workspaceId);
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  return workspace;
}

export interface SubscriptionChange {
  workspaceId: number;
  tier?: string | undefined;
  status?: string | undefined;
  /** ISO 8601 date-time. */
  currentPeriodEnd?: string | undefined;
  cancelAtPeriodEnd?: boolean | undefined;
}

function checkDateTime(field: string, value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(date.getTime())) {
    throw invalidParameters([`${field} must be an ISO 8601 date-time such as 2026-12-01T00:00:00Z (got ${JSON.stringify(value)})`]);
  }
  return date;
}

/** The operator's (billing's) change of a subscription: any of tier, status, period end and cancel-at-period-end. */
export async function setSubscription(deps: AccountsDeps, input: SubscriptionChange): Promise<Workspace> {
  const { tier, status, currentPeriodEnd, cancelAtPeriodEnd } = input;
  if ([tier, status, currentPeriodEnd, cancelAtPeriodEnd].every((v) => v === undefined)) {
    throw invalidParameters(['give at least one of tier, status, current_period_end, cancel_at_period_end']);
  }
  const patch: WorkspacePatch = {
    ...(tier !== undefined ? { tier: checkTier(tier) } : {}),
    ...(status !== undefined ? { subscriptionStatus: checkStatus(status) } : {}),
    ...(currentPeriodEnd !== undefined ? { currentPeriodEnd: checkDateTime('current_period_end', currentPeriodEnd) } : {}),
    ...(cancelAtPeriodEnd !== undefined ? { cancelAtPeriodEnd } : {}),
  };
  const updated = await deps.workspaces.update(input.workspaceId, patch);
  if (!updated) throw notFound(`Workspace ${input.workspaceId}`);
  return updated;
}

export async function setReviewRequired(deps: AccountsDeps, workspaceId: number, required: boolean): Promise<Workspace> {
  const updated = await deps.workspaces.update(workspaceId, { reviewRequired: required });
  if (!updated) throw notFound(`Workspace ${workspaceId}`);
  return updated;
}
