import type { ImageWeekItem, ImageWeekRun } from '@spa/contracts/image_week/v1/image_week';
import { z } from 'zod';
import { route } from './route.js';
import { dateTime, idField, idParam, int, ListMetaSchema, pageLimit, pageOffset, PROTO_INT_RANGES } from './schemas.js';

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const RUN_STATUSES = ['pending', 'completed', 'failed', 'canceled'] as const;
const ITEM_STATUSES = ['pending', 'generating', 'verifying', 'completed', 'failed', 'canceled'] as const;

const ItemSchema = z
  .object({
    id: z.number().int(),
    position: z.number().int().describe('Order of the item in the run (slot order)'),
    platform: z.enum(['instagram', 'pinterest']),
    social_account_id: z.number().int(),
    status: z.enum(ITEM_STATUSES),
    attempt_count: z.number().int().describe('Renders of this item so far (at most 3; reset by regenerate)'),
    quote: z.string().nullable(),
    template: z.string().nullable().describe('Template of the last render'),
    image: z.object({ url: z.string(), r2_key: z.string(), width: z.number().int(), height: z.number().int() }).nullable().describe('The accepted card, stored like any upload'),
    post_id: z.number().int().nullable().describe('The post built from the card (null for a dry run)'),
    scheduled_at: dateTime.nullable().describe('The planned slot'),
    watermarked: z.boolean(),
    last_error: z.string().nullable(),
  })
  .meta({ id: 'ImageWeekItem' });

const RunSchema = z
  .object({
    id: z.number().int(),
    status: z
      .enum(RUN_STATUSES)
      .describe(
        'pending while planning or rendering; completed when every item finished and one or more completed; failed when planning failed, nothing could be planned, or every item failed; canceled',
      ),
    content_plan_id: z.number().int().nullable(),
    schedule_mode: z.enum(['draft', 'scheduled']),
    topic: z.string(),
    pack: z.string().nullable(),
    platform_config: z.record(z.string(), z.unknown()),
    cutoff_days: z.number().int(),
    watermark_enabled: z.boolean(),
    watermark_text: z.string().nullable().describe("null: each account's cards carry that account's @handle (when watermark_enabled)"),
    watermark_every_n: z.number().int(),
    dry_run: z.boolean(),
    template_version: z.string(),
    total_items: z.number().int(),
    completed_items: z.number().int(),
    failed_items: z.number().int(),
    canceled_items: z.number().int(),
    shortfall_reason: z.enum(['quota', 'no_slots']).nullable().describe('Why fewer items than free slots were planned: the daily AI generation quota, or no free slot'),
    error_message: z.string().nullable(),
    images_generated: z.number().int(),
    retry_count: z.number().int(),
    garble_count: z.number().int().describe('Renders whose read-back did not match the quote'),
    est_cost_cents: z.number().int().describe('0 with the built-in OCR; the configured vision model price otherwise'),
    duration_ms: z.number().int().describe('From creation to finish (to now while pending)'),
    finished_at: dateTime.nullable(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'ImageWeekRun' });

const RunWithItems = RunSchema.extend({ items: z.array(ItemSchema) });

const presentItem = (i: ImageWeekItem): z.infer<typeof ItemSchema> => ({
  id: i.id,
  position: i.position,
  platform: i.platform as 'instagram' | 'pinterest',
  social_account_id: i.socialAccountId,
  status: i.status as (typeof ITEM_STATUSES)[number],
  attempt_count: i.attemptCount,
  quote: orNull(i.quote),
  template: orNull(i.template),
  image: i.image ? { url: i.image.url, r2_key: i.image.r2Key, width: i.image.width, height: i.image.height } : null,
  post_id: orNull(i.postId),
  scheduled_at: orNull(i.scheduledAt),
  watermarked: i.watermarked,
  last_error: orNull(i.lastError),
});

function presentRun(r: ImageWeekRun): z.infer<typeof RunSchema> {
  return {
    id: r.id,
    status: r.status as (typeof RUN_STATUSES)[number],
    content_plan_id: orNull(r.contentPlanId),
    schedule_mode: r.scheduleMode as 'draft' | 'scheduled',
    topic: r.topic,
    pack: orNull(r.pack),
    platform_config: JSON.parse(r.platformConfigJson || '{}') as Record<string, unknown>,
    cutoff_days: r.cutoffDays,
    watermark_enabled: r.watermarkEnabled,
    watermark_text: orNull(r.watermarkText),
    watermark_every_n: r.watermarkEveryN,
    dry_run: r.dryRun,
    template_version: r.templateVersion,
    total_items: r.totalItems,
    completed_items: r.completedItems,
    failed_items: r.failedItems,
    canceled_items: r.canceledItems,
    shortfall_reason: orNull(r.shortfallReason) as 'quota' | 'no_slots' | null,
    error_message: orNull(r.errorMessage),
    images_generated: r.imagesGenerated,
    retry_count: r.retryCount,
    garble_count: r.garbleCount,
    est_cost_cents: r.estCostCents,
    duration_ms: r.durationMs,
    finished_at: orNull(r.finishedAt),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

const withItems = (r: ImageWeekRun) => ({ ...presentRun(r), items: r.items.map(presentItem) });

const CreateBody = z
  .object({
    topic: z.string().describe('What the quotes are about (1-500 characters)'),
    platform_config: z
      .record(z.string(), z.unknown())
      .describe(
        "Keyed by platform: instagram {social_account_id, aspect?: portrait (1080x1350, default) | square (1080x1080)}; pinterest {social_account_id, board_id (one of the account's boards, its id of digits: GET /pinterest/boards), link (http(s) URL, at most 2048 characters)} (1000x1500). Each pin's post carries them in its content metadata as board_id and link (checked as a post's are), with the quote as its title (cut to 100 characters). Accounts must be connected accounts of the workspace on that platform.",
      ),
    // Bounded here by its proto field only (0 would read as unset there): the service checks 1-14 beside the run's other fields, so one answer names them all.
    cutoff_days: int('int32', 1, PROTO_INT_RANGES.int32[1])
      .optional()
      .describe("1-14, default 7: slots within this many days are planned (0 is refused, not read as the default; a value above 14 is named with the body's other problems)"),
    schedule_mode: z.string().optional().describe('draft (default) or scheduled (each post scheduled into its planned slot)'),
    watermark_enabled: z.boolean().optional().describe("Puts a watermark on the cards: watermark_text, or else each account's @handle"),
    watermark_text: z.string().optional().describe("An extension of the contract: the watermark's text, at most 60 characters. Without it, each account's cards carry that account's @handle"),
    watermark_every_n: int('int32', 1, 100).optional().describe('1-100, default 1: the watermark goes on every n-th card of each account'),
    dry_run: z.boolean().optional().describe('Renders and verifies, creates no post, uses no monthly run'),
    content_plan_id: idField().optional(),
    pack: z.string().optional(),
  })
  .strict();

const RunEnvelope = z.object({ image_week_run: RunWithItems });
const CREATE_DEADLINE_MS = 30_000;
const NOTE =
  'Items are planned one per free posting slot (libs/slots rules, as publishing) of each configured account within cutoff_days; each quote comes from the generation service in the workspace voice and counts one daily AI generation. Every card is read back (OCR built in, or a configured vision model) and re-laid out up to 3 times before its item fails.';

export const imageWeekRoutes = [
  route({
    method: 'post',
    path: '/image_week_runs',
    tag: 'Quote Week',
    summary: 'Start a Quote Week run',
    description: `Answers 201 at once; the work runs in the background (poll GET /image_week_runs/{id}). Monthly quota: 4 runs on Starter, 12 on Pro and Team, in the calendar month of the workspace time zone, exact under concurrent requests; dry runs are exempt; exhausted: 422 quota_exceeded. At most 2 runs of a workspace render at once (others wait). ${NOTE}`,
    audience: 'api_key',
    scope: 'image_week:write',
    plan: 'paid',
    body: CreateBody,
    status: 201,
    response: RunEnvelope,
    handle: async ({ clients, principal, body }) => {
      // Validation reads the accounts and the quota claim may retry a few times under concurrent creates.
      const { imageWeekRun } = await clients.imageWeek.createRun(
        {
          workspaceId: principal.workspaceId,
          topic: body.topic,
          platformConfigJson: JSON.stringify(body.platform_config),
          cutoffDays: body.cutoff_days ?? 0,
          scheduleMode: body.schedule_mode ?? '',
          watermarkEnabled: body.watermark_enabled ?? false,
          watermarkText: body.watermark_text,
          watermarkEveryN: body.watermark_every_n,
          dryRun: body.dry_run ?? false,
          contentPlanId: body.content_plan_id,
          pack: body.pack,
        },
        { deadlineMs: CREATE_DEADLINE_MS },
      );
      return { image_week_run: withItems(imageWeekRun!) };
    },
  }),
  route({
    method: 'get',
    path: '/image_week_runs',
    tag: 'Quote Week',
    summary: 'List Quote Week runs',
    description: 'Newest first. Items are not included (GET a run for them).',
    audience: 'api_key',
    scope: 'image_week:read',
    plan: 'paid',
    query: z
      .object({
        limit: pageLimit(20, 100),
        offset: pageOffset,
        status: z.enum(RUN_STATUSES).optional(),
      })
      .strict(),
    status: 200,
    response: z.object({ image_week_runs: z.array(RunSchema), meta: ListMetaSchema }),
    handle: async ({ clients, principal, query }) => {
      const reply = await clients.imageWeek.listRuns({ workspaceId: principal.workspaceId, limit: query.limit, offset: query.offset, status: query.status });
      return { image_week_runs: reply.imageWeekRuns.map(presentRun), meta: { limit: reply.limit, offset: reply.offset, total_count: reply.totalCount } };
    },
  }),
  route({
    method: 'get',
    path: '/image_week_runs/{id}',
    tag: 'Quote Week',
    summary: 'Get a Quote Week run with its items',
    audience: 'api_key',
    scope: 'image_week:read',
    plan: 'paid',
    params: z.object({ id: idParam }),
    status: 200,
    response: RunEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { imageWeekRun } = await clients.imageWeek.getRun({ workspaceId: principal.workspaceId, runId: params.id });
      return { image_week_run: withItems(imageWeekRun!) };
    },
  }),
  route({
    method: 'post',
    path: '/image_week_runs/{id}/cancel',
    tag: 'Quote Week',
    summary: 'Cancel a Quote Week run',
    description:
      'Items not finished become canceled; nothing more is rendered or posted (posts already built stay). An item whose post was being created ' +
      'when the cancel came is answered with that post (the cancel waits up to 3 s for it), so the answer shows every post the run will have. ' +
      'On a completed, failed or canceled run: no-op answering the run.',
    audience: 'api_key',
    scope: 'image_week:write',
    plan: 'paid',
    params: z.object({ id: idParam }),
    status: 200,
    response: RunEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { imageWeekRun } = await clients.imageWeek.cancelRun({ workspaceId: principal.workspaceId, runId: params.id });
      return { image_week_run: withItems(imageWeekRun!) };
    },
  }),
  route({
    method: 'post',
    path: '/image_week_runs/{image_week_run_id}/items/{id}/regenerate',
    tag: 'Quote Week',
    summary: 'Regenerate a failed Quote Week item',
    description: 'Only a failed item: attempt count reset; a new quote, render, verify, post build and slot fill for that item only. Otherwise 422 INVALID_STATE. Answers the run and the item.',
    audience: 'api_key',
    scope: 'image_week:write',
    plan: 'paid',
    params: z.object({ image_week_run_id: idParam, id: idParam }),
    status: 200,
    response: RunEnvelope.extend({ item: ItemSchema }),
    handle: async ({ clients, principal, params }) => {
      const { imageWeekRun, item } = await clients.imageWeek.regenerateItem({ workspaceId: principal.workspaceId, runId: params.image_week_run_id, itemId: params.id });
      return { image_week_run: withItems(imageWeekRun!), item: presentItem(item!) };
    },
  }),
];
