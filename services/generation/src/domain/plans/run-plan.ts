import { AppError, notFound } from '@spa/errors';
import { CAPABILITIES } from '@spa/platforms';
import type { ContentIdea, MediaType } from '../ideas/model.js';
import { writeChannelPosts } from './channel-posts.js';
import type { Channel, ContentPlan, PlanRun, PlanSnapshot } from './model.js';
import type { PlansDeps } from './ports.js';
import { startQuoteWeek } from './quote-card-channel.js';
import { RunOwnershipLost, topicOf } from './run-common.js';
import { localDateOf, nextRunAt } from './schedule.js';

export { RunOwnershipLost } from './run-common.js';

function snapshotOf(plan: ContentPlan, dryRun: boolean): PlanSnapshot {
  return {
    planId: plan.id,
    name: plan.name,
    topic: topicOf(plan),
    contentStrategy: plan.contentStrategy,
    scheduleMode: plan.scheduleMode,
    channels: plan.channels,
    dryRun,
    platformConfigs: plan.platformConfigs,
  };
}

function newRun(deps: PlansDeps, plan: ContentPlan, id: string, trigger: PlanRun['trigger'], dueAt: Date | undefined, timezone: string, dryRun = plan.dryRun): PlanRun {
  const now = deps.clock.now();
  return {
    id,
    planId: plan.id,
    workspaceId: plan.workspaceId,
    trigger,
    dueAt,
    localDate: localDateOf(dueAt ?? now, timezone),
    snapshot: snapshotOf(plan, dryRun),
    status: 'running',
    attempt: 1,
    owner: deps.instanceId,
    leaseUntil: new Date(now.getTime() + deps.leaseMs),
    startedAt: now,
    postsCreated: 0,
    ideasCreated: 0,
    itemsFailed: 0,
  };
}

/** A channel whose platform needs media, or whose format is quote cards, writes no text posts (ideas, and a Quote Week run for quote cards). */
const ideasOnly = (c: Channel): boolean => c.format === 'quote_card' || CAPABILITIES[c.platform].media_required;

const mediaTypeOf = (c: Channel): MediaType => (ideasOnly(c) ? (CAPABILITIES[c.platform].content_types.includes('image') ? 'image' : 'video') : 'text');

/** The angles a run turns into ideas: those no post of this run used (all of them on an ideas-only channel). */
function ideaAngles(c: Channel): Array<{ index: number; angle: string | undefined }> {
  if (ideasOnly(c)) return c.angles.length ? c.angles.map((angle, index) => ({ index, angle })) : [{ index: 0, angle: undefined }];
  return c.angles.map((angle, index) => ({ index, angle })).filter(({ index }) => index >= c.postsPerDay);
}

export function ideaPrompt(s: PlanSnapshot, c: Channel, angle: string | undefined): string {
  const topic = topicOf(s, c);
  const parts = [`A ${c.platform} post about ${topic}`];
  if (angle) parts.push(`from this angle: ${angle}`);
  let prompt = parts.join(', ') + '.';
  if (s.contentStrategy && s.contentStrategy !== topic) prompt += ` Strategy: ${s.contentStrategy}`;
  return prompt;
}

/**
 * Claims the plan's due run (plan id + due time) by inserting it: of any number of replicas, exactly one
 * gets it. Null when it was claimed before; a finished run whose plan was not advanced (its owner died
 * between the two writes) is recorded on the plan now.
 */
export async function claimScheduledRun(deps: PlansDeps, plan: ContentPlan): Promise<PlanRun | null> {
  const due = plan.nextRunAt;
  if (!due) return null;
  const run = newRun(deps, plan, `${plan.id}:${due.toISOString()}`, 'scheduled', due, plan.timezone);
  if (await deps.store.insertRun(run)) return run;
  const existing = await deps.store.getRun(run.id);
  if (existing && existing.status !== 'running') await recordOnPlan(deps, existing);
  return null;
}

/**
 * A manual run of the plan, claimed now (its id is unique); refused while another run of the plan is under way.
 * `dryRun`, when given, overrides the plan's dry_run for this run only.
 */
export async function claimManualRun(deps: PlansDeps, workspaceId: number, planId: number, dryRun?: boolean): Promise<{ plan: ContentPlan; run: PlanRun }> {
  const plan = await deps.store.getPlan(workspaceId, planId);
  if (!plan) throw notFound('Content plan');
  const latest = await deps.store.latestRun(plan.id);
  if (latest?.status === 'running' && latest.leaseUntil.getTime() > deps.clock.now().getTime()) {
    throw new AppError('INVALID_STATE', `A run of this plan is under way (${latest.id}); wait until it finishes`);
  }
  const timezone = await deps.accounts.timezone(workspaceId);
  const run = newRun(deps, plan, `${plan.id}:manual:${deps.newId()}`, 'manual', undefined, timezone, dryRun ?? plan.dryRun);
  if (!(await deps.store.insertRun(run))) throw new AppError('INTERNAL_ERROR', 'run id collision');
  return { plan, run };
}

/** Takes over a run whose owner stopped renewing its lease (claiming the next attempt); null when another process did. */
export async function takeOverRun(deps: PlansDeps, run: PlanRun): Promise<PlanRun | null> {
  const now = deps.clock.now();
  const attempt = run.attempt + 1;
  if (!(await deps.store.claimAttempt(run.id, attempt, deps.instanceId, now))) return null;
  const patch = { attempt, owner: deps.instanceId, leaseUntil: new Date(now.getTime() + deps.leaseMs) };
  if (!(await deps.store.updateRun(run.id, run.attempt, patch))) return null;
  return { ...run, ...patch };
}

/**
 * Executes a claimed run: for each active channel, `posts_per_day` posts written by the PostWriter and stored
 * through the posts service (drafts, or scheduled into the account's next free slots; dry-run posts for a dry run),
 * or for a quote_card channel one Quote Week run, and an idea for each angle no post used. Resumable (see
 * writeChannelPosts and startQuoteWeek); ideas carry a unique key per (run, channel, angle).
 */
export async function executeRun(deps: PlansDeps, run: PlanRun, signal: AbortSignal): Promise<PlanRun> {
  const s = run.snapshot;
  let ideasCreated = 0;
  for (const [ci, channel] of s.channels.entries()) {
    if (!channel.active) continue;
    if (!ideasOnly(channel)) await writeChannelPosts(deps, run, ci, channel, signal);
    else if (channel.format === 'quote_card') await startQuoteWeek(deps, run, ci, channel);
    for (const { index, angle } of ideaAngles(channel)) {
      if (signal.aborted) throw new RunOwnershipLost(run.id);
      await deps.ideas.insertIdea(await newIdea(deps, run, ci, channel, index, angle));
      ideasCreated += 1;
    }
  }
  const counts = await deps.store.countItems(run.id);
  const finished: PlanRun = {
    ...run,
    status: counts.failed ? 'failed' : 'completed',
    finishedAt: deps.clock.now(),
    postsCreated: counts.created,
    ideasCreated,
    itemsFailed: counts.failed,
    error: counts.failed ? await firstError(deps, run) : undefined,
    imageWeekRunIds: counts.imageWeekRunIds,
  };
  // The plan first, then the run: a reader that sees the run finished also sees last_run_at and next_run_at
  // moved. An owner that dies in between leaves the run `running`; its takeover finds everything done and
  // records again (idempotent: next_run_at only moves while it is still this run's due time).
  await recordOnPlan(deps, finished);
  const { status, finishedAt, postsCreated, itemsFailed, error, imageWeekRunIds } = finished;
  if (!(await deps.store.updateRun(run.id, run.attempt, { status, finishedAt, postsCreated, ideasCreated, itemsFailed, error, imageWeekRunIds }))) {
    throw new RunOwnershipLost(run.id);
  }
  return finished;
}

async function firstError(deps: PlansDeps, run: PlanRun): Promise<string | undefined> {
  for (const ci of run.snapshot.channels.keys()) {
    const failed = (await deps.store.runItems(run.id, ci)).find((i) => i.error);
    if (failed) return run.snapshot.channels[ci]?.format === 'quote_card' ? `channels[${ci}]: ${failed.error}` : `channels[${ci}] post ${failed.n + 1}: ${failed.error}`;
  }
  return undefined;
}

async function newIdea(deps: PlansDeps, run: PlanRun, ci: number, channel: Channel, index: number, angle: string | undefined): Promise<ContentIdea> {
  return {
    id: await deps.ideas.nextIdeaId(),
    workspaceId: run.workspaceId,
    platform: channel.platform,
    topic: topicOf(run.snapshot, channel),
    angle,
    prompt: ideaPrompt(run.snapshot, channel, angle),
    source: 'content_plan',
    sourceLabel: run.snapshot.name,
    generatedForDate: run.localDate,
    mediaType: mediaTypeOf(channel),
    contentPlanId: run.planId,
    sourceKey: `${run.id}:${ci}:${index}`,
    createdAt: deps.clock.now(),
  };
}

/** Sets the plan's last_run_at and, after its scheduled run, its next run (from now, in the current workspace zone). */
async function recordOnPlan(deps: PlansDeps, run: PlanRun): Promise<void> {
  const finishedAt = run.finishedAt ?? deps.clock.now();
  if (run.trigger === 'manual' || !run.dueAt) return deps.store.recordRun(run.planId, finishedAt);
  const plan = await deps.store.getPlan(run.workspaceId, run.planId);
  if (!plan) return;
  const timezone = await deps.accounts.timezone(run.workspaceId);
  const after = new Date(Math.max(deps.clock.now().getTime(), run.dueAt.getTime()));
  const next = plan.active ? nextRunAt(plan.scheduleDay, plan.scheduleTime, timezone, after) : undefined;
  await deps.store.recordRun(run.planId, finishedAt, { expected: run.dueAt, nextRunAt: next, timezone });
}
