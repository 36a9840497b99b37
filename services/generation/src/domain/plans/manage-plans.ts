import { AppError, invalidParameters, notFound } from '@spa/errors';
import { MAX_PLANS_PER_USER, type ContentPlan, type PlanFields, type ScheduleMode } from './model.js';
import type { PlansDeps } from './ports.js';
import { firstRunAt } from './schedule.js';
import { buildChannels, planFieldProblems, planProblems } from './validate-plan.js';

/** Validates the fields (all problems at once, accounts checked with the accounts service) and applies them to `base`. */
async function applyFields(deps: PlansDeps, workspaceId: number, fields: PlanFields, base: Omit<ContentPlan, 'timezone' | 'nextRunAt'>, creating: boolean) {
  const problems = planFieldProblems(fields, creating);
  const ids = (fields.channels ?? []).map((c) => c.socialAccountId);
  const [accounts, timezone] = await Promise.all([ids.length ? deps.accounts.socialAccounts(workspaceId, [...new Set(ids)]) : Promise.resolve([]), deps.accounts.timezone(workspaceId)]);
  const channels = fields.channels ? buildChannels(fields.channels, accounts, problems) : base.channels;
  const plan: ContentPlan = {
    ...base,
    name: fields.name?.trim() ?? base.name,
    active: fields.active ?? base.active,
    useSources: fields.useSources ?? base.useSources,
    platformConfigs: (fields.platformConfigs as Record<string, unknown> | undefined) ?? base.platformConfigs,
    channels,
    contentStrategy: fields.contentStrategy === undefined ? base.contentStrategy : fields.contentStrategy.trim() || undefined,
    scheduleDay: fields.scheduleDay ?? base.scheduleDay,
    scheduleTime: fields.scheduleTime ?? base.scheduleTime,
    scheduleMode: (fields.scheduleMode as ScheduleMode | undefined) ?? base.scheduleMode,
    dryRun: fields.dryRun ?? base.dryRun,
    timezone,
    updatedAt: deps.clock.now(),
  };
  problems.push(...planProblems(plan));
  if (problems.length) throw invalidParameters(problems);
  plan.nextRunAt = plan.active ? firstRunAt(plan.scheduleDay, plan.scheduleTime, timezone, plan.updatedAt) : undefined;
  return plan;
}

/**
 * Creates a plan counted against its owner (the API key's creator): at most 10 per user, exact under
 * concurrency because each plan takes one of the owner's numbered slots 1..10 under a unique index.
 */
export async function createPlan(deps: PlansDeps, workspaceId: number, ownerUserId: number, fields: PlanFields): Promise<ContentPlan> {
  const now = deps.clock.now();
  const plan = await applyFields(
    deps,
    workspaceId,
    fields,
    {
      id: 0,
      workspaceId,
      ownerUserId,
      slot: 0,
      name: '',
      active: true,
      useSources: false,
      platformConfigs: {},
      channels: [],
      scheduleDay: 0,
      scheduleTime: '00:00',
      scheduleMode: 'draft',
      dryRun: false,
      createdAt: now,
      updatedAt: now,
    },
    true,
  );
  plan.id = await deps.store.nextPlanId();
  const used = new Set(await deps.store.usedSlots(ownerUserId));
  for (let slot = 1; slot <= MAX_PLANS_PER_USER; slot++) {
    if (used.has(slot)) continue;
    if (await deps.store.insertPlan({ ...plan, slot })) return { ...plan, slot };
  }
  throw new AppError('PLAN_LIMIT_REACHED', `A user may own at most ${MAX_PLANS_PER_USER} content plans; delete one first`);
}

export async function getPlan(deps: PlansDeps, workspaceId: number, id: number): Promise<ContentPlan> {
  const plan = await deps.store.getPlan(workspaceId, id);
  if (!plan) throw notFound('Content plan');
  return plan;
}

export const listPlans = (deps: PlansDeps, workspaceId: number): Promise<ContentPlan[]> => deps.store.listPlans(workspaceId);

/** Changes the given fields (channels, when given, replace the list); the next run is recomputed from now. */
export async function updatePlan(deps: PlansDeps, workspaceId: number, id: number, fields: PlanFields): Promise<ContentPlan> {
  const current = await getPlan(deps, workspaceId, id);
  const next = await applyFields(deps, workspaceId, fields, current, false);
  const saved = await deps.store.savePlan(next);
  if (!saved) throw notFound('Content plan');
  return saved;
}

/** Deletes a plan (its slot is free again); answers the plan as it was. Posts and ideas it produced stay. */
export async function deletePlan(deps: PlansDeps, workspaceId: number, id: number): Promise<ContentPlan> {
  const plan = await getPlan(deps, workspaceId, id);
  if (!(await deps.store.deletePlan(workspaceId, id))) throw notFound('Content plan');
  return plan;
}
