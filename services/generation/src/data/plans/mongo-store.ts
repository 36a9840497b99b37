import { IdAllocator, isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { Platform } from '@spa/vocabulary';
import type { Channel, ChannelFormat, ContentPlan, PlanRun, PlanSnapshot, RunItem, RunStatus, RunTrigger, ScheduleMode } from '../../domain/plans/model.js';
import type { PlansStore } from '../../domain/plans/ports.js';
import { registerPlanModels, type PlanModels } from './models.js';

interface ChannelDoc {
  social_account_id: number;
  platform: string;
  format: string;
  board_id?: string | null;
  angles: string[];
  posts_per_day: number;
  quote_topic?: string | null;
  watermark_enabled: boolean;
  watermark_text?: string | null;
  watermark_every_n?: number | null;
  carousel_every_n?: number | null;
  active: boolean;
}

interface PlanDoc {
  _id: number;
  workspace_id: number;
  owner_user_id: number;
  slot: number;
  name: string;
  active: boolean;
  use_sources: boolean;
  platform_configs: string;
  channels: ChannelDoc[];
  content_strategy?: string | null;
  schedule_day: number;
  schedule_time: string;
  schedule_mode: string;
  /** Absent on plans stored before dry runs existed: false. */
  dry_run?: boolean | null;
  timezone: string;
  last_run_at?: Date | null;
  next_run_at?: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface RunDoc {
  _id: string;
  plan_id: number;
  workspace_id: number;
  trigger: string;
  due_at?: Date | null;
  local_date: string;
  snapshot: string;
  status: string;
  attempt: number;
  owner: string;
  lease_until: Date;
  started_at: Date;
  finished_at?: Date | null;
  posts_created: number;
  ideas_created: number;
  items_failed: number;
  error?: string | null;
  image_week_run_ids?: number[] | null;
}

interface ItemDoc {
  _id: string;
  run_id: string;
  channel_index: number;
  n: number;
  body?: string | null;
  carousel?: { r2_key: string; url: string; page_count: number } | null;
  post_id?: number | null;
  image_week_run_id?: number | null;
  error?: string | null;
  created_at: Date;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

const toChannel = (c: ChannelDoc): Channel => ({
  socialAccountId: c.social_account_id,
  platform: c.platform as Platform,
  format: c.format as ChannelFormat,
  boardId: opt(c.board_id),
  angles: c.angles,
  postsPerDay: c.posts_per_day,
  quoteTopic: opt(c.quote_topic),
  watermarkEnabled: c.watermark_enabled,
  watermarkText: opt(c.watermark_text),
  watermarkEveryN: opt(c.watermark_every_n),
  carouselEveryN: opt(c.carousel_every_n),
  active: c.active,
});

const channelDoc = (c: Channel): ChannelDoc => ({
  social_account_id: c.socialAccountId,
  platform: c.platform,
  format: c.format,
  board_id: c.boardId,
  angles: c.angles,
  posts_per_day: c.postsPerDay,
  quote_topic: c.quoteTopic,
  watermark_enabled: c.watermarkEnabled,
  watermark_text: c.watermarkText,
  watermark_every_n: c.watermarkEveryN,
  carousel_every_n: c.carouselEveryN,
  active: c.active,
});

const toPlan = (d: PlanDoc): ContentPlan => ({
  id: d._id,
  workspaceId: d.workspace_id,
  ownerUserId: d.owner_user_id,
  slot: d.slot,
  name: d.name,
  active: d.active,
  useSources: d.use_sources,
  platformConfigs: JSON.parse(d.platform_configs) as Record<string, unknown>,
  channels: d.channels.map(toChannel),
  contentStrategy: opt(d.content_strategy),
  scheduleDay: d.schedule_day,
  scheduleTime: d.schedule_time,
  scheduleMode: d.schedule_mode as ScheduleMode,
  dryRun: d.dry_run ?? false,
  timezone: d.timezone,
  lastRunAt: opt(d.last_run_at),
  nextRunAt: opt(d.next_run_at),
  createdAt: d.created_at,
  updatedAt: d.updated_at,
});

/** The client fields and schedule of a plan (not last_run_at, which only runs set). */
const planFields = (p: ContentPlan) => ({
  name: p.name,
  active: p.active,
  use_sources: p.useSources,
  platform_configs: JSON.stringify(p.platformConfigs),
  channels: p.channels.map(channelDoc),
  content_strategy: p.contentStrategy ?? null,
  schedule_day: p.scheduleDay,
  schedule_time: p.scheduleTime,
  schedule_mode: p.scheduleMode,
  dry_run: p.dryRun,
  timezone: p.timezone,
  next_run_at: p.nextRunAt ?? null,
  updated_at: p.updatedAt,
});

const toRun = (d: RunDoc): PlanRun => ({
  id: d._id,
  planId: d.plan_id,
  workspaceId: d.workspace_id,
  trigger: d.trigger as RunTrigger,
  dueAt: opt(d.due_at),
  localDate: d.local_date,
  snapshot: JSON.parse(d.snapshot) as PlanSnapshot,
  status: d.status as RunStatus,
  attempt: d.attempt,
  owner: d.owner,
  leaseUntil: d.lease_until,
  startedAt: d.started_at,
  finishedAt: opt(d.finished_at),
  postsCreated: d.posts_created,
  ideasCreated: d.ideas_created,
  itemsFailed: d.items_failed,
  error: opt(d.error),
  imageWeekRunIds: opt(d.image_week_run_ids),
});

const RUN_FIELDS: Record<string, string> = {
  attempt: 'attempt',
  owner: 'owner',
  leaseUntil: 'lease_until',
  status: 'status',
  finishedAt: 'finished_at',
  postsCreated: 'posts_created',
  ideasCreated: 'ideas_created',
  itemsFailed: 'items_failed',
  error: 'error',
  imageWeekRunIds: 'image_week_run_ids',
};

const toItem = (d: ItemDoc): RunItem => ({
  runId: d.run_id,
  channelIndex: d.channel_index,
  n: d.n,
  body: opt(d.body),
  carousel: d.carousel ? { r2Key: d.carousel.r2_key, url: d.carousel.url, pageCount: d.carousel.page_count } : undefined,
  postId: opt(d.post_id),
  imageWeekRunId: opt(d.image_week_run_id),
  error: opt(d.error),
  createdAt: d.created_at,
});

async function insertOnce(insert: () => Promise<unknown>): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

export class MongoPlansStore implements PlansStore {
  readonly models: PlanModels;
  private readonly ids: IdAllocator;

  constructor(connection: Connection) {
    this.models = registerPlanModels(connection);
    this.ids = new IdAllocator(connection);
  }

  nextPlanId(): Promise<number> {
    return this.ids.next('content_plans');
  }

  insertPlan(p: ContentPlan): Promise<boolean> {
    return insertOnce(() => this.models.Plan.create({ _id: p.id, workspace_id: p.workspaceId, owner_user_id: p.ownerUserId, slot: p.slot, ...planFields(p), created_at: p.createdAt }));
  }

  async usedSlots(ownerUserId: number): Promise<number[]> {
    const docs = await this.models.Plan.find({ owner_user_id: ownerUserId }, { slot: 1 }).lean<Array<{ slot: number }>>();
    return docs.map((d) => d.slot);
  }

  async getPlan(workspaceId: number, id: number): Promise<ContentPlan | null> {
    const doc = await this.models.Plan.findOne({ _id: id, workspace_id: workspaceId }).lean<PlanDoc>();
    return doc ? toPlan(doc) : null;
  }

  async listPlans(workspaceId: number): Promise<ContentPlan[]> {
    return (await this.models.Plan.find({ workspace_id: workspaceId }).sort({ _id: 1 }).lean<PlanDoc[]>()).map(toPlan);
  }

  async savePlan(p: ContentPlan): Promise<ContentPlan | null> {
    const result = await this.models.Plan.updateOne({ _id: p.id, workspace_id: p.workspaceId }, { $set: planFields(p) });
    return result.matchedCount === 1 ? this.getPlan(p.workspaceId, p.id) : null;
  }

  async deletePlan(workspaceId: number, id: number): Promise<boolean> {
    return (await this.models.Plan.deleteOne({ _id: id, workspace_id: workspaceId })).deletedCount === 1;
  }

  async duePlans(now: Date, limit: number): Promise<ContentPlan[]> {
    const docs = await this.models.Plan.find({ active: true, next_run_at: { $lte: now } })
      .sort({ next_run_at: 1 })
      .limit(limit)
      .lean<PlanDoc[]>();
    return docs.map(toPlan);
  }

  async recordRun(planId: number, lastRunAt: Date, next?: { expected: Date; nextRunAt: Date | undefined; timezone: string }): Promise<void> {
    await this.models.Plan.updateOne({ _id: planId }, { $set: { last_run_at: lastRunAt } });
    // Only while the plan still waits for that due time: an edit in between already set a new next run.
    if (next) await this.models.Plan.updateOne({ _id: planId, next_run_at: next.expected }, { $set: { next_run_at: next.nextRunAt ?? null, timezone: next.timezone } });
  }

  insertRun(r: PlanRun): Promise<boolean> {
    return insertOnce(() =>
      this.models.Run.create({
        _id: r.id,
        plan_id: r.planId,
        workspace_id: r.workspaceId,
        trigger: r.trigger,
        due_at: r.dueAt,
        local_date: r.localDate,
        snapshot: JSON.stringify(r.snapshot),
        status: r.status,
        attempt: r.attempt,
        owner: r.owner,
        lease_until: r.leaseUntil,
        started_at: r.startedAt,
        posts_created: r.postsCreated,
        ideas_created: r.ideasCreated,
        items_failed: r.itemsFailed,
      }),
    );
  }

  async getRun(id: string): Promise<PlanRun | null> {
    const doc = await this.models.Run.findById(id).lean<RunDoc>();
    return doc ? toRun(doc) : null;
  }

  async latestRun(planId: number): Promise<PlanRun | null> {
    const [doc] = await this.models.Run.find({ plan_id: planId }).sort({ started_at: -1 }).limit(1).lean<RunDoc[]>();
    return doc ? toRun(doc) : null;
  }

  async staleRuns(now: Date, limit: number): Promise<PlanRun[]> {
    const docs = await this.models.Run.find({ status: 'running', lease_until: { $lt: now } })
      .sort({ lease_until: 1 })
      .limit(limit)
      .lean<RunDoc[]>();
    return docs.map(toRun);
  }

  claimAttempt(runId: string, attempt: number, owner: string, now: Date): Promise<boolean> {
    return insertOnce(() => this.models.Attempt.create({ _id: `${runId}:${attempt}`, run_id: runId, attempt, owner, claimed_at: now }));
  }

  async updateRun(runId: string, attempt: number, patch: Partial<PlanRun>): Promise<boolean> {
    const $set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) if (RUN_FIELDS[key]) $set[RUN_FIELDS[key]] = value ?? null;
    return (await this.models.Run.updateOne({ _id: runId, attempt }, { $set })).matchedCount === 1;
  }

  async runItems(runId: string, channelIndex: number): Promise<RunItem[]> {
    return (await this.models.Item.find({ run_id: runId, channel_index: channelIndex }).sort({ n: 1 }).lean<ItemDoc[]>()).map(toItem);
  }

  insertItem(i: RunItem): Promise<boolean> {
    return insertOnce(() =>
      this.models.Item.create({
        _id: `${i.runId}:${i.channelIndex}:${i.n}`,
        run_id: i.runId,
        channel_index: i.channelIndex,
        n: i.n,
        body: i.body,
        carousel: i.carousel ? { r2_key: i.carousel.r2Key, url: i.carousel.url, page_count: i.carousel.pageCount } : undefined,
        image_week_run_id: i.imageWeekRunId,
        error: i.error,
        created_at: i.createdAt,
      }),
    );
  }

  async updateItem(runId: string, channelIndex: number, n: number, patch: { postId?: number; error?: string }): Promise<void> {
    const $set: Record<string, unknown> = {};
    if (patch.postId !== undefined) $set.post_id = patch.postId;
    if (patch.error !== undefined) $set.error = patch.error;
    await this.models.Item.updateOne({ _id: `${runId}:${channelIndex}:${n}` }, { $set });
  }

  async countItems(runId: string): Promise<{ created: number; failed: number; imageWeekRunIds: number[] }> {
    const docs = await this.models.Item.find({ run_id: runId }, { post_id: 1, error: 1, image_week_run_id: 1 }).lean<Array<Pick<ItemDoc, 'post_id' | 'error' | 'image_week_run_id'>>>();
    return {
      created: docs.filter((d) => typeof d.post_id === 'number').length,
      failed: docs.filter((d) => d.error).length,
      imageWeekRunIds: docs.map((d) => d.image_week_run_id).filter((id): id is number => typeof id === 'number'),
    };
  }
}
