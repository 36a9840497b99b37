import { Schema, type Connection } from 'mongoose';

/**
 * Mongoose schemas of the image-week database (declared indexes are created by syncIndexes). Queries narrow by
 * equality (workspace, run) to small sets, so they stay cheap on FerretDB, which pushes down equality only.
 */
export function registerModels(connection: Connection) {
  const run = new Schema(
    {
      _id: Number,
      workspace_id: { type: Number, required: true },
      topic: String,
      pack: String,
      platform_config: { type: Schema.Types.Mixed, default: {} },
      targets: { type: Schema.Types.Mixed, default: [] },
      cutoff_days: Number,
      schedule_mode: String,
      watermark_enabled: Boolean,
      watermark_text: String,
      watermark_every_n: Number,
      dry_run: Boolean,
      content_plan_id: Number,
      template_version: String,
      planned_at: Date,
      shortfall_reason: String,
      error_message: String,
      canceled_at: Date,
      created_at: Date,
      updated_at: Date,
    },
    { collection: 'runs', versionKey: false, minimize: false },
  );
  run.index({ workspace_id: 1, created_at: -1 });
  run.index({ planned_at: 1 });

  const item = new Schema(
    {
      _id: Number,
      run_id: { type: Number, required: true },
      workspace_id: { type: Number, required: true },
      position: Number,
      account_position: Number,
      platform: String,
      social_account_id: Number,
      status: String,
      attempt_count: Number,
      round: Number,
      quote: String,
      replaced_quotes: { type: [String], default: undefined },
      template: String,
      image: { type: Schema.Types.Mixed },
      post_id: Number,
      scheduled_at: Date,
      watermarked: Boolean,
      last_error: String,
      images_generated: Number,
      retry_count: Number,
      garble_count: Number,
      est_cost_cents: Number,
      finished_at: Date,
      updated_at: Date,
    },
    { collection: 'items', versionKey: false },
  );
  // One item per run position: a planning job done twice inserts nothing new.
  item.index({ run_id: 1, position: 1 }, { unique: true });
  item.index({ status: 1 });

  const lease = new Schema({ _id: String, owner: String, expires_at: Date }, { collection: 'leases', versionKey: false });
  const postClaim = new Schema({ _id: Number, state: String, post_id: Number, claimed_at: Date }, { collection: 'post_claims', versionKey: false });
  const quotaClaim = new Schema({ _id: String, workspace_id: Number, month: String, slot: Number, run_id: Number, claimed_at: Date }, { collection: 'run_quota_claims', versionKey: false });
  quotaClaim.index({ workspace_id: 1, month: 1 });
  // What a plan (or a regenerated item) got from the generation service: `<scope>` holds the number of quotes fixed
  // by its first planner, `<scope>:<n>` batch n's texts. Each is a unique insert, so a successor reuses them.
  const quoteLedger = new Schema({ _id: String, scope: String, n: Number, wanted: Number, texts: [String], quota_hit: Boolean, recorded_at: Date }, { collection: 'quote_ledger', versionKey: false });
  quoteLedger.index({ scope: 1 });

  // A create's idempotency key bound to its run id: `<workspace id>:<key>`, a unique insert.
  const runKey = new Schema({ _id: String, run_id: Number, bound_at: Date }, { collection: 'run_keys', versionKey: false });

  return {
    RunKey: connection.model('RunKey', runKey),
    Run: connection.model('Run', run),
    Item: connection.model('Item', item),
    Lease: connection.model('Lease', lease),
    PostClaim: connection.model('PostClaim', postClaim),
    QuotaClaim: connection.model('QuotaClaim', quotaClaim),
    QuoteLedger: connection.model('QuoteLedger', quoteLedger),
  };
}

export type Models = ReturnType<typeof registerModels>;
