import { PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { ContentIdeaSchema, ContentPlanSchema, CreatePlanBody, fieldsMessage, presentIdea, presentPlan, presentRun, RunSchema, UpdatePlanBody } from './content-plan-shapes.js';
import { route } from './route.js';
import { idParam, pageLimit, pageOffset } from './schemas.js';

const PlanEnvelope = z.object({ content_plan: ContentPlanSchema });
const PlanParams = z.object({ id: idParam });
const PLANS_NOTE =
  'Plan runs write posts with the workspace voice, preferences and active custom rules, and do not count against the daily AI-generation quota (a run is bounded by posts_per_day x channels and happens at most once per due time).';

export const contentPlanRoutes = [
  route({
    method: 'post',
    path: '/content_plans',
    tag: 'Content plans',
    summary: 'Create a content plan',
    description: `At most 10 plans per user (the API key's creator; the plan belongs to the workspace): the 11th is 422 PLAN_LIMIT_REACHED, exact under concurrent requests. Channels must name connected accounts of the workspace. ${PLANS_NOTE}`,
    audience: 'api_key',
    scope: 'plans:write',
    plan: 'paid',
    body: CreatePlanBody,
    status: 201,
    response: PlanEnvelope,
    handle: async ({ clients, principal, body }) => {
      const { contentPlan } = await clients.contentPlans.createContentPlan({ workspaceId: principal.workspaceId, userId: principal.userId, plan: fieldsMessage(body.content_plan) });
      return { content_plan: presentPlan(contentPlan!) };
    },
  }),
  route({
    method: 'get',
    path: '/content_plans',
    tag: 'Content plans',
    summary: "List the workspace's content plans",
    audience: 'api_key',
    scope: 'plans:read',
    plan: 'paid',
    status: 200,
    response: z.object({ content_plans: z.array(ContentPlanSchema), meta: z.object({ total_count: z.number().int() }) }),
    handle: async ({ clients, principal }) => {
      const { contentPlans } = await clients.contentPlans.listContentPlans({ workspaceId: principal.workspaceId });
      return { content_plans: contentPlans.map(presentPlan), meta: { total_count: contentPlans.length } };
    },
  }),
  route({
    method: 'get',
    path: '/content_plans/{id}',
    tag: 'Content plans',
    summary: 'Get a content plan',
    audience: 'api_key',
    scope: 'plans:read',
    plan: 'paid',
    params: PlanParams,
    status: 200,
    response: PlanEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { contentPlan } = await clients.contentPlans.getContentPlan({ workspaceId: principal.workspaceId, planId: params.id });
      return { content_plan: presentPlan(contentPlan!) };
    },
  }),
  route({
    method: 'patch',
    path: '/content_plans/{id}',
    tag: 'Content plans',
    summary: 'Update a content plan',
    description: 'Changes only the given fields (channels, when given, replace the list); next_run_at is recomputed from now. A run under way keeps the plan as it was when the run started.',
    audience: 'api_key',
    scope: 'plans:write',
    plan: 'paid',
    params: PlanParams,
    body: UpdatePlanBody,
    status: 200,
    response: PlanEnvelope,
    handle: async ({ clients, principal, params, body }) => {
      const { contentPlan } = await clients.contentPlans.updateContentPlan({ workspaceId: principal.workspaceId, planId: params.id, plan: fieldsMessage(body.content_plan) });
      return { content_plan: presentPlan(contentPlan!) };
    },
  }),
  route({
    method: 'delete',
    path: '/content_plans/{id}',
    tag: 'Content plans',
    summary: 'Delete a content plan',
    description: "Answers the plan as it was and frees one of its owner's 10 plan slots. Posts and ideas the plan produced stay.",
    audience: 'api_key',
    scope: 'plans:write',
    plan: 'paid',
    params: PlanParams,
    status: 200,
    response: PlanEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { contentPlan } = await clients.contentPlans.deleteContentPlan({ workspaceId: principal.workspaceId, planId: params.id });
      return { content_plan: presentPlan(contentPlan!) };
    },
  }),
  route({
    method: 'post',
    path: '/content_plans/{id}/run',
    tag: 'Content plans',
    summary: 'Run a content plan now',
    description:
      "Starts a run in the background and answers 202 at once with the plan (its `last_run` is this run, status running) and the run. For each active channel the run writes posts_per_day posts and stores them through the posts service (source content_plan) as drafts or, with schedule_mode scheduled, into the account's next free posting slots (on a LinkedIn channel with carousel_every_n, posts n, 2n, … are carousels: a PDF document post); each angle no post used becomes a content idea. " +
      "Each active quote_card channel starts one Quote Week run (see POST /image_week_runs) for its account: topic = the channel's quote_topic or the plan's content_strategy (else its name), the channel's watermark fields, the plan's schedule_mode and dry_run, cutoff_days 7, content_plan_id = the plan; Pinterest with the channel's board_id and `platform_configs.pinterest.link` (required for such a plan) as the pins' link. Exactly one per plan run, also when a run is resumed after a crash. When the monthly Quote Week quota is used up (quota_exceeded) that channel fails (items_failed, error names it) and the rest of the run goes on. The quotes of those Quote Week runs count against the daily AI-generation quota like those of any Quote Week run. " +
      "Body (optional): `{dry_run: boolean}` overrides the plan's dry_run for this run only. Poll GET /content_plans/{id} until last_run.status is completed or failed. While a run of the plan is under way another is 422 INVALID_STATE; send an Idempotency-Key to make a retried request safe. " +
      PLANS_NOTE,
    audience: 'api_key',
    scope: 'plans:write',
    plan: 'paid',
    params: PlanParams,
    body: z
      .object({ dry_run: z.boolean().optional().describe("This run only: overrides the plan's dry_run") })
      .strict()
      .default({}),
    status: 202,
    response: PlanEnvelope.extend({ run: RunSchema }),
    handle: async ({ clients, principal, params, body }) => {
      const { contentPlan, run } = await clients.contentPlans.runContentPlan({ workspaceId: principal.workspaceId, planId: params.id, dryRun: body.dry_run });
      return { content_plan: presentPlan(contentPlan!), run: presentRun(run!) };
    },
  }),
  route({
    method: 'get',
    path: '/content_ideas',
    tag: 'Content plans',
    summary: 'List content ideas',
    description: 'Ideas produced by plan runs, newest generated_for_date first.',
    audience: 'api_key',
    scope: 'content_ideas:read',
    plan: 'paid',
    query: z
      .object({
        limit: pageLimit(50),
        offset: pageOffset,
        platform: z.enum(PLATFORMS).optional(),
        unused: z
          .enum(['true', 'false'])
          .optional()
          .describe('true: only ideas not used yet')
          .transform((v) => v === 'true'),
      })
      .strict(),
    status: 200,
    response: z.object({ content_ideas: z.array(ContentIdeaSchema), meta: z.object({ limit: z.number().int(), offset: z.number().int(), total_count: z.number().int() }) }),
    handle: async ({ clients, principal, query }) => {
      const reply = await clients.contentPlans.listContentIdeas({ workspaceId: principal.workspaceId, limit: query.limit, offset: query.offset, platform: query.platform, unused: query.unused });
      return { content_ideas: reply.contentIdeas.map(presentIdea), meta: { limit: reply.limit, offset: reply.offset, total_count: reply.totalCount } };
    },
  }),
  route({
    method: 'post',
    path: '/content_ideas/{id}/use',
    tag: 'Content plans',
    summary: 'Use a content idea',
    description:
      'Answers `seed_prompt` (pass it as `idea` to POST /posts/generate_from_idea) and the idea, and sets used_at. Using it again answers the same and keeps the first used_at. Scope plans:write: the call changes the state of a plan output (no content_ideas:write scope exists, and it creates no post, so posts:write does not fit).',
    audience: 'api_key',
    scope: 'plans:write',
    plan: 'paid',
    params: z.object({ id: idParam }),
    status: 200,
    response: z.object({ seed_prompt: z.string(), content_idea: ContentIdeaSchema }),
    handle: async ({ clients, principal, params }) => {
      const { seedPrompt, contentIdea } = await clients.contentPlans.useContentIdea({ workspaceId: principal.workspaceId, ideaId: params.id });
      return { seed_prompt: seedPrompt, content_idea: presentIdea(contentIdea!) };
    },
  }),
];
