/** The public shapes of content plans, their runs and ideas (zod schemas for the OpenAPI document) and their mapping to and from generation's messages. */
import type { ContentIdea, ContentPlan, ContentPlanFields, ContentPlanRun } from '@spa/contracts/generation/v1/content_plans';
import { postOptionProblems } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { z } from 'zod';
import { dateTime, idField, int } from './schemas.js';

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const DRY_RUN_NOTE =
  'A dry-run plan writes its posts with dry_run true (publishing runs every preflight but never calls the platform; each target ends platform_status dry_run) and starts dry-run Quote Week runs (cards rendered and verified, no post, no monthly run quota).';
const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

const ChannelSchema = z.object({
  social_account_id: z.number().int(),
  platform: z.enum(PLATFORMS),
  format: z
    .string()
    .describe(
      'post (text posts; ideas only on media-only platforms) or quote_card (Instagram and Pinterest: each run starts a Quote Week run for the account, see POST /content_plans/{id}/run, and turns the angles into image ideas)',
    ),
  board_id: z.string().nullable().describe('The Pinterest board the channel pins to (required on Pinterest channels; its Quote Week posts carry it)'),
  angles: z.array(z.string()).describe('Post n of a run takes angle n mod len(angles); angles no post of a run used become content ideas'),
  posts_per_day: z.number().int().describe('Posts each run writes for this channel (1-10)'),
  quote_topic: z.string().nullable().describe("When set, this channel's topic instead of the plan's content_strategy"),
  watermark_enabled: z.boolean(),
  watermark_text: z.string().nullable(),
  watermark_every_n: z.number().int().nullable(),
  carousel_every_n: z
    .number()
    .int()
    .nullable()
    .describe("LinkedIn only: posts n, 2n, … (1-based) of the channel's posts in a run are carousels (a PDF document post, as POST /posts/generate_carousel makes)"),
  active: z.boolean().describe('Inactive channels are skipped by runs'),
});

export const RunSchema = z
  .object({
    id: z.string().describe('`<plan id>:<due time>` for a scheduled run (each due time runs once), `<plan id>:manual:<uuid>` for a manual one'),
    trigger: z.enum(['scheduled', 'manual']),
    status: z.enum(['running', 'completed', 'failed']).describe('failed: at least one post could not be written or stored (see error); the others were stored'),
    due_at: dateTime.nullable(),
    started_at: dateTime,
    finished_at: dateTime.nullable(),
    posts_created: z.number().int(),
    ideas_created: z.number().int(),
    items_failed: z.number().int(),
    error: z.string().nullable(),
    dry_run: z.boolean().describe("Whether the run wrote dry-run posts and started dry-run Quote Week runs (the plan's dry_run, or the run request's override)"),
    image_week_run_ids: z.array(z.number().int()).describe('The Quote Week runs this run started (one per active quote_card channel; GET /image_week_runs/{id}); filled when the run finishes'),
  })
  .meta({ id: 'ContentPlanRun' });

export const ContentPlanSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    active: z.boolean().describe('Inactive plans do not run on schedule (next_run_at is null)'),
    use_sources: z.boolean(),
    platform_configs: z.record(z.string(), z.unknown()).describe('Object keyed by platform, stored as given'),
    channels: z.array(ChannelSchema),
    content_strategy: z.string().nullable().describe('What the plan writes about: the topic of every run (a channel may override it with quote_topic; the plan name when both are empty)'),
    schedule_day: z.enum(DAY_NAMES).describe('Lowercase English day name (the create request takes 0-6, 0 = Sunday, as posting slots do)'),
    schedule_time: z.string().describe('HH:MM, 24-hour, in the workspace time zone'),
    schedule_mode: z.enum(['draft', 'scheduled']).describe("How runs store posts: drafts, or scheduled into each account's next free posting slots (a draft when the account has no free slot)"),
    dry_run: z.boolean().describe(DRY_RUN_NOTE),
    timezone: z.string().describe('The workspace time zone (preferences) the schedule is computed in'),
    last_run_at: dateTime.nullable().describe('When the last run (scheduled or manual) finished'),
    next_run_at: dateTime
      .nullable()
      .describe(
        'The next schedule_day at schedule_time in the workspace zone (DST: a time in a spring-forward gap runs at the end of the gap; a repeated time runs at its first occurrence); null while inactive',
      ),
    last_run: RunSchema.nullable().describe('The most recent run, finished or not'),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'ContentPlan' });

export const ContentIdeaSchema = z
  .object({
    id: z.number().int(),
    platform: z.enum(PLATFORMS),
    topic: z.string(),
    angle: z.string().nullable(),
    prompt: z.string(),
    source: z.string().describe('content_plan for ideas from plan runs'),
    source_url: z.string().nullable(),
    source_label: z.string().nullable().describe('The producing plan name'),
    generated_for_date: z.iso.date().describe("The run's local date in the workspace time zone"),
    dismissed_at: dateTime.nullable(),
    used_at: dateTime.nullable().describe('Set by the first POST /content_ideas/{id}/use'),
    media_type: z.enum(['text', 'image', 'video']),
    shared_inspiration_item_id: z.number().int().nullable(),
    content_plan_id: z.number().int().nullable(),
    created_at: dateTime,
  })
  .meta({ id: 'ContentIdea' });

const text = (max: number) => z.string().max(max);

/** A plan's platform_configs give defaults for its posts' choices: each given one is checked as a post's metadata is. */
function refineConfigOptions(configs: Partial<Record<Platform, Record<string, unknown>>>, ctx: z.RefinementCtx): void {
  for (const [platform, config] of Object.entries(configs) as [Platform, Record<string, unknown>][]) {
    for (const p of postOptionProblems(platform, config, { required: false })) ctx.addIssue({ code: 'custom', path: [platform, p.field], message: p.message });
  }
}
const ChannelInput = z
  .object({
    social_account_id: idField().describe('A connected account of the workspace'),
    platform: z.enum(PLATFORMS).optional().describe("Default: the account's platform; when given it must be the account's platform"),
    format: z.enum(['post', 'quote_card']).optional().describe('Default post; quote_card only on Instagram and Pinterest channels'),
    board_id: text(200)
      .optional()
      .describe(
        "Required on Pinterest channels, refused on others: the id (digits) of one of the account's boards (GET /pinterest/boards). The channel's pins (its Quote Week posts) carry it as their content's metadata.board_id.",
      ),
    angles: z.array(text(300)).max(10).optional().describe('At most 10'),
    posts_per_day: int('int32', 1, 10).optional().describe('1-10, default 1'),
    quote_topic: text(200).optional(),
    watermark_enabled: z.boolean().optional(),
    watermark_text: text(200).optional(),
    watermark_every_n: int('int32', 1, 100).optional(),
    carousel_every_n: int('int32', 1, 10).optional().describe('LinkedIn channels of format post only; 1-10'),
    active: z.boolean().optional().describe('Default true'),
  })
  .strict();

const scheduleDay = z
  .union([int('int32', 0, 6), z.enum(DAY_NAMES)])
  .describe('0-6 (0 = Sunday), or the lowercase day name as responses show it')
  .transform((d) => (typeof d === 'number' ? d : DAY_NAMES.indexOf(d)));

const PlanInputFields = {
  name: z.string().trim().min(1).max(200),
  schedule_day: scheduleDay,
  schedule_time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)')
    .describe('HH:MM in the workspace time zone'),
  active: z.boolean().optional().describe('Default true'),
  use_sources: z.boolean().optional().describe('Default false'),
  platform_configs: z
    .partialRecord(z.enum(PLATFORMS), z.record(z.string(), z.unknown()))
    .superRefine(refineConfigOptions)
    .optional()
    .describe(
      "Object keyed by platform; default {}. A platform's object may give the choices of that platform's posts, the fields of PostContentMetadata it reads (pinterest: board_id, link, title, media_fit; tiktok: privacy_level, disable_comment, disable_duet, disable_stitch, media_fit; youtube: title, privacy_status; the others: media_fit), checked as a post's are (422 naming the field, e.g. content_plan.platform_configs.twitter.board_id). They fill the metadata of the posts the plan's channels on that platform create; a Pinterest channel's board_id wins over platform_configs.pinterest.board_id. `pinterest.link` is required while a Pinterest quote_card channel is active: its Quote Week pins carry that link and the channel's board (their title is the quote). Other keys are stored as given.",
    ),
  channels: z.array(ChannelInput).max(20).optional().describe('At most 20; on PATCH the list replaces the channels'),
  content_strategy: z.string().max(5000).optional(),
  schedule_mode: z.enum(['draft', 'scheduled']).optional().describe('Default draft'),
  dry_run: z
    .boolean()
    .optional()
    .describe('Default false. ' + DRY_RUN_NOTE),
};

export const CreatePlanBody = z.object({ content_plan: z.object(PlanInputFields).strict() }).strict();
export const UpdatePlanBody = z
  .object({
    content_plan: z
      .object(PlanInputFields)
      .partial()
      .strict()
      .refine((p) => Object.keys(p).length > 0, { message: 'name at least one field to change' }),
  })
  .strict();

type PlanInput = Partial<z.infer<(typeof CreatePlanBody)['shape']['content_plan']>>;

export function fieldsMessage(p: PlanInput): ContentPlanFields {
  return {
    name: p.name,
    active: p.active,
    useSources: p.use_sources,
    platformConfigsJson: p.platform_configs === undefined ? undefined : JSON.stringify(p.platform_configs),
    hasChannels: p.channels !== undefined,
    channels: (p.channels ?? []).map((c) => ({
      socialAccountId: c.social_account_id,
      platform: c.platform,
      format: c.format,
      boardId: c.board_id,
      angles: c.angles ?? [],
      postsPerDay: c.posts_per_day,
      quoteTopic: c.quote_topic,
      watermarkEnabled: c.watermark_enabled,
      watermarkText: c.watermark_text,
      watermarkEveryN: c.watermark_every_n,
      carouselEveryN: c.carousel_every_n,
      active: c.active,
    })),
    contentStrategy: p.content_strategy,
    scheduleDay: p.schedule_day,
    scheduleTime: p.schedule_time,
    scheduleMode: p.schedule_mode,
    dryRun: p.dry_run,
  };
}

export const presentRun = (r: ContentPlanRun): z.infer<typeof RunSchema> => ({
  id: r.id,
  trigger: r.trigger as 'scheduled' | 'manual',
  status: r.status as 'running' | 'completed' | 'failed',
  due_at: orNull(r.dueAt),
  started_at: r.startedAt,
  finished_at: orNull(r.finishedAt),
  posts_created: r.postsCreated,
  ideas_created: r.ideasCreated,
  items_failed: r.itemsFailed,
  error: orNull(r.error),
  dry_run: r.dryRun,
  image_week_run_ids: r.imageWeekRunIds,
});

export function presentPlan(p: ContentPlan): z.infer<typeof ContentPlanSchema> {
  return {
    id: p.id,
    name: p.name,
    active: p.active,
    use_sources: p.useSources,
    platform_configs: JSON.parse(p.platformConfigsJson || '{}') as Record<string, unknown>,
    channels: p.channels.map((c) => ({
      social_account_id: c.socialAccountId,
      platform: c.platform as never,
      format: c.format,
      board_id: orNull(c.boardId),
      angles: c.angles,
      posts_per_day: c.postsPerDay,
      quote_topic: orNull(c.quoteTopic),
      watermark_enabled: c.watermarkEnabled,
      watermark_text: orNull(c.watermarkText),
      watermark_every_n: orNull(c.watermarkEveryN),
      carousel_every_n: orNull(c.carouselEveryN),
      active: c.active,
    })),
    content_strategy: orNull(p.contentStrategy),
    schedule_day: DAY_NAMES[p.scheduleDay] ?? 'sunday',
    schedule_time: p.scheduleTime,
    schedule_mode: p.scheduleMode as 'draft' | 'scheduled',
    dry_run: p.dryRun,
    timezone: p.timezone,
    last_run_at: orNull(p.lastRunAt),
    next_run_at: orNull(p.nextRunAt),
    last_run: p.lastRun ? presentRun(p.lastRun) : null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

export const presentIdea = (i: ContentIdea): z.infer<typeof ContentIdeaSchema> => ({
  id: i.id,
  platform: i.platform as never,
  topic: i.topic,
  angle: orNull(i.angle),
  prompt: i.prompt,
  source: i.source,
  source_url: orNull(i.sourceUrl),
  source_label: orNull(i.sourceLabel),
  generated_for_date: i.generatedForDate,
  dismissed_at: orNull(i.dismissedAt),
  used_at: orNull(i.usedAt),
  media_type: i.mediaType as 'text' | 'image' | 'video',
  shared_inspiration_item_id: orNull(i.sharedInspirationItemId),
  content_plan_id: orNull(i.contentPlanId),
  created_at: i.createdAt,
});
