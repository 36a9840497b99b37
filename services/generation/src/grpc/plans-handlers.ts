import {
  ContentPlansServiceService,
  type ContentIdea as ContentIdeaMessage,
  type ContentPlan as ContentPlanMessage,
  type ContentPlanFields,
  type ContentPlanRun as ContentPlanRunMessage,
  type NewContentPlanChannel,
} from '@spa/contracts/generation/v1/content_plans';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import type { ContentIdea } from '../domain/ideas/model.js';
import { listIdeas, useIdea } from '../domain/ideas/ideas.js';
import { createPlan, deletePlan, getPlan, listPlans, updatePlan } from '../domain/plans/manage-plans.js';
import type { Channel, ContentPlan, PlanFields, PlanRun } from '../domain/plans/model.js';
import type { PlansDeps } from '../domain/plans/ports.js';
import { claimManualRun } from '../domain/plans/run-plan.js';
import { positiveId } from './request-ids.js';

const iso = (d: Date | undefined): string | undefined => d?.toISOString();

/** A channel's fields: the same names in the proto message and in the domain, so one copy serves both ways. */
function channelFields<C extends Channel | NewContentPlanChannel>(c: C): Pick<C, keyof Channel & keyof NewContentPlanChannel> {
  const fields: Record<keyof Channel & keyof NewContentPlanChannel, unknown> = {
    socialAccountId: c.socialAccountId,
    platform: c.platform,
    format: c.format,
    boardId: c.boardId,
    angles: c.angles,
    postsPerDay: c.postsPerDay,
    quoteTopic: c.quoteTopic,
    watermarkEnabled: c.watermarkEnabled,
    watermarkText: c.watermarkText,
    watermarkEveryN: c.watermarkEveryN,
    carouselEveryN: c.carouselEveryN,
    active: c.active,
  };
  return fields as Pick<C, keyof Channel & keyof NewContentPlanChannel>;
}

export function runMessage(r: PlanRun): ContentPlanRunMessage {
  return {
    id: r.id,
    trigger: r.trigger,
    status: r.status,
    dueAt: iso(r.dueAt),
    startedAt: r.startedAt.toISOString(),
    finishedAt: iso(r.finishedAt),
    postsCreated: r.postsCreated,
    ideasCreated: r.ideasCreated,
    itemsFailed: r.itemsFailed,
    error: r.error,
    dryRun: r.snapshot.dryRun ?? false,
    imageWeekRunIds: r.imageWeekRunIds ?? [],
  };
}

export function planMessage(p: ContentPlan, lastRun: PlanRun | null): ContentPlanMessage {
  return {
    id: p.id,
    name: p.name,
    active: p.active,
    useSources: p.useSources,
    platformConfigsJson: JSON.stringify(p.platformConfigs),
    channels: p.channels.map(channelFields),
    contentStrategy: p.contentStrategy,
    scheduleDay: p.scheduleDay,
    scheduleTime: p.scheduleTime,
    scheduleMode: p.scheduleMode,
    dryRun: p.dryRun,
    lastRunAt: iso(p.lastRunAt),
    nextRunAt: iso(p.nextRunAt),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    lastRun: lastRun ? runMessage(lastRun) : undefined,
    timezone: p.timezone,
  };
}

export function ideaMessage(i: ContentIdea): ContentIdeaMessage {
  return {
    id: i.id,
    platform: i.platform,
    topic: i.topic,
    angle: i.angle,
    prompt: i.prompt,
    source: i.source,
    sourceUrl: i.sourceUrl,
    sourceLabel: i.sourceLabel,
    generatedForDate: i.generatedForDate,
    dismissedAt: iso(i.dismissedAt),
    usedAt: iso(i.usedAt),
    mediaType: i.mediaType,
    contentPlanId: i.contentPlanId,
    createdAt: i.createdAt.toISOString(),
  };
}

function planFields(f: ContentPlanFields | undefined, problems: string[]): PlanFields {
  if (!f) return {};
  let platformConfigs: unknown;
  if (f.platformConfigsJson !== undefined) {
    try {
      platformConfigs = JSON.parse(f.platformConfigsJson);
    } catch {
      problems.push('content_plan.platform_configs must be a JSON object');
    }
  }
  return {
    name: f.name,
    active: f.active,
    useSources: f.useSources,
    platformConfigs,
    channels: f.hasChannels ? f.channels.map(channelFields) : undefined,
    contentStrategy: f.contentStrategy,
    scheduleDay: f.scheduleDay,
    scheduleTime: f.scheduleTime,
    scheduleMode: f.scheduleMode,
    dryRun: f.dryRun,
  };
}

function fieldsOf(f: ContentPlanFields | undefined): PlanFields {
  const problems: string[] = [];
  const fields = planFields(f, problems);
  if (problems.length) throw invalidParameters(problems);
  return fields;
}

/** gRPC transport of content plans and ideas; `launch` starts a claimed run in the background. */
export function contentPlansService(deps: PlansDeps, launch: (run: PlanRun) => void): ServiceBinding {
  const withLastRun = async (p: ContentPlan) => planMessage(p, await deps.store.latestRun(p.id));
  return bindService('generation.v1.ContentPlansService', ContentPlansServiceService, {
    createContentPlan: async (req) => {
      const plan = await createPlan(deps, positiveId(req.workspaceId, 'workspace_id'), positiveId(req.userId, 'user_id'), fieldsOf(req.plan));
      return { contentPlan: planMessage(plan, null) };
    },
    listContentPlans: async (req) => ({
      contentPlans: await Promise.all((await listPlans(deps, positiveId(req.workspaceId, 'workspace_id'))).map(withLastRun)),
    }),
    getContentPlan: async (req) => ({ contentPlan: await withLastRun(await getPlan(deps, req.workspaceId, positiveId(req.planId, 'plan_id'))) }),
    updateContentPlan: async (req) => ({
      contentPlan: await withLastRun(await updatePlan(deps, req.workspaceId, positiveId(req.planId, 'plan_id'), fieldsOf(req.plan))),
    }),
    deleteContentPlan: async (req) => ({ contentPlan: planMessage(await deletePlan(deps, req.workspaceId, positiveId(req.planId, 'plan_id')), null) }),
    runContentPlan: async (req) => {
      const { plan, run } = await claimManualRun(deps, req.workspaceId, positiveId(req.planId, 'plan_id'), req.dryRun);
      launch(run);
      return { contentPlan: planMessage(plan, run), run: runMessage(run) };
    },
    listContentIdeas: async (req) => {
      const page = await listIdeas(deps.ideas, { workspaceId: positiveId(req.workspaceId, 'workspace_id'), limit: req.limit, offset: req.offset, platform: req.platform, unused: req.unused });
      return { contentIdeas: page.ideas.map(ideaMessage), totalCount: page.totalCount, limit: page.limit, offset: page.offset };
    },
    useContentIdea: async (req) => {
      const { seedPrompt, idea } = await useIdea(deps.ideas, req.workspaceId, positiveId(req.ideaId, 'idea_id'), deps.clock.now());
      return { seedPrompt, contentIdea: ideaMessage(idea) };
    },
  });
}
