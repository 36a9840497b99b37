import { Schema, type Connection } from 'mongoose';

/** Mongoose schemas of content plans and their runs. */
export function registerPlanModels(connection: Connection) {
  const channelSchema = new Schema(
    {
      social_account_id: { type: Number, required: true },
      platform: { type: String, required: true },
      format: { type: String, required: true },
      board_id: String,
      angles: { type: [String], default: [] },
      posts_per_day: { type: Number, required: true },
      quote_topic: String,
      watermark_enabled: { type: Boolean, required: true },
      watermark_text: String,
      watermark_every_n: Number,
      carousel_every_n: Number,
      active: { type: Boolean, required: true },
    },
    { _id: false },
  );

  const planSchema = new Schema(
    {
      _id: Number,
      workspace_id: { type: Number, required: true },
      owner_user_id: { type: Number, required: true },
      /** 1..10: the unique (owner_user_id, slot) index enforces the per-user limit. */
      slot: { type: Number, required: true },
      name: { type: String, required: true },
      active: { type: Boolean, required: true },
      use_sources: { type: Boolean, required: true },
      /** JSON text: an object keyed by platform, stored as given. */
      platform_configs: { type: String, required: true },
      channels: { type: [channelSchema], default: [] },
      content_strategy: String,
      schedule_day: { type: Number, required: true },
      schedule_time: { type: String, required: true },
      schedule_mode: { type: String, required: true },
      dry_run: Boolean,
      timezone: { type: String, required: true },
      last_run_at: Date,
      next_run_at: Date,
      created_at: { type: Date, required: true },
      updated_at: { type: Date, required: true },
    },
    { collection: 'content_plans', versionKey: false },
  );
  planSchema.index({ owner_user_id: 1, slot: 1 }, { unique: true });
  planSchema.index({ workspace_id: 1, _id: 1 });
  planSchema.index({ active: 1, next_run_at: 1 });

  const runSchema = new Schema(
    {
      /** `<plan id>:<due ISO>` or `<plan id>:manual:<uuid>`: inserting it claims the run. */
      _id: String,
      plan_id: { type: Number, required: true },
      workspace_id: { type: Number, required: true },
      trigger: { type: String, required: true },
      due_at: Date,
      local_date: { type: String, required: true },
      /** JSON text of the plan as it was when the run was claimed. */
      snapshot: { type: String, required: true },
      status: { type: String, required: true },
      attempt: { type: Number, required: true },
      owner: { type: String, required: true },
      lease_until: { type: Date, required: true },
      started_at: { type: Date, required: true },
      finished_at: Date,
      posts_created: { type: Number, required: true },
      ideas_created: { type: Number, required: true },
      items_failed: { type: Number, required: true },
      error: String,
      image_week_run_ids: [Number],
    },
    { collection: 'content_plan_runs', versionKey: false },
  );
  runSchema.index({ plan_id: 1, started_at: -1 });
  runSchema.index({ status: 1, lease_until: 1 });

  /** `<run id>:<attempt>` for attempts after the first: inserting it claims the takeover. */
  const attemptSchema = new Schema(
    { _id: String, run_id: { type: String, required: true }, attempt: { type: Number, required: true }, owner: { type: String, required: true }, claimed_at: { type: Date, required: true } },
    { collection: 'content_plan_run_attempts', versionKey: false },
  );

  const itemSchema = new Schema(
    {
      /** `<run id>:<channel index>:<n>`: one document per post a run writes. */
      _id: String,
      run_id: { type: String, required: true },
      channel_index: { type: Number, required: true },
      n: { type: Number, required: true },
      body: String,
      /** A carousel post's PDF, stored through media before the post is created. */
      carousel: { type: { _id: false, r2_key: String, url: String, page_count: Number }, default: undefined },
      post_id: Number,
      /** A quote_card channel's item: the Quote Week run it started. */
      image_week_run_id: Number,
      error: String,
      created_at: { type: Date, required: true },
    },
    { collection: 'content_plan_run_items', versionKey: false },
  );
  itemSchema.index({ run_id: 1, channel_index: 1, n: 1 });

  return {
    Plan: connection.model('ContentPlan', planSchema),
    Run: connection.model('ContentPlanRun', runSchema),
    Attempt: connection.model('ContentPlanRunAttempt', attemptSchema),
    Item: connection.model('ContentPlanRunItem', itemSchema),
  };
}

export type PlanModels = ReturnType<typeof registerPlanModels>;
