import { Schema, type Connection } from 'mongoose';
import { registerListModels } from './list-models.js';
import { registerOutbox } from './outbox.js';

const postContentSchema = new Schema(
  {
    id: { type: Number, required: true },
    platform: { type: String, required: true },
    body: { type: String, default: '' },
    content_type: { type: String, required: true },
    position: { type: Number, default: 0 },
    first_comment: { type: String },
    metadata: { type: Schema.Types.Mixed, default: {} },
  },
  { _id: false, minimize: false },
);

const postAccountSchema = new Schema(
  {
    id: { type: Number, required: true },
    social_account_id: { type: Number, required: true },
    platform: { type: String, required: true },
    username: { type: String, required: true },
    platform_status: String,
    platform_post_id: String,
    permalink: String,
    platform_error: String,
    dub_short_url: String,
    dub_original_url: String,
    post_metric: {
      type: new Schema({ impressions: Number, likes: Number, replies: Number, reposts: Number, clicks: Number, engagement_rate: Number, fetched_at: Date }, { _id: false }),
    },
  },
  { _id: false },
);

/** Mongoose schemas of the posts database. A post embeds its contents and target accounts. */
export function registerModels(connection: Connection) {
  const postSchema = new Schema(
    {
      _id: Number,
      workspace_id: { type: Number, required: true },
      status: { type: String, required: true },
      flexible: { type: Boolean, default: false },
      scheduled_at: Date,
      due_second: Number,
      posted_at: Date,
      failed_at: Date,
      post_error: String,
      disconnected: { type: Boolean, default: false },
      source: { type: String, required: true },
      recurrence_jitter_enabled: { type: Boolean, default: false },
      evergreen: { type: Boolean, default: false },
      evergreen_variations: { type: [String], default: [] },
      recycled_from_id: Number,
      recurrence_interval_days: Number,
      reviewed_at: Date,
      review_action: String,
      rejection_reason: String,
      created_at: { type: Date, required: true },
      updated_at: { type: Date, required: true },
      body: { type: String, default: '' },
      dry_run: { type: Boolean, default: false },
      origin: { request_id: String, traceparent: String, tracestate: String },
      post_contents: { type: [postContentSchema], default: [] },
      post_accounts: { type: [postAccountSchema], default: [] },
    },
    { collection: 'posts', versionKey: false },
  );
  postSchema.index({ workspace_id: 1, status: 1, scheduled_at: 1 });
  postSchema.index({ workspace_id: 1, created_at: -1 });
  postSchema.index({ status: 1, scheduled_at: 1 });
  // The scheduler's reads of the posts due in one second (equality: see MongoDispatchStore.duePosts).
  postSchema.index({ due_second: 1, status: 1 });
  const Post = connection.model('Post', postSchema);
  const dispatchSchema = new Schema(
    {
      _id: String,
      workspace_id: { type: Number, required: true },
      post_id: { type: Number, required: true },
      claimed_at: { type: Date, required: true },
      /** The insert the claim was won in: a dispatcher finishes a batch's claims together, by this. */
      batch: String,
      /** Set on claims stored before claims were removed once finished (kept as history, never standing). */
      job_sent_at: Date,
      job_sent: { type: Boolean, default: false },
    },
    { collection: 'dispatches', versionKey: false },
  );
  dispatchSchema.index({ job_sent: 1, claimed_at: 1 });
  dispatchSchema.index({ batch: 1 });
  const Dispatch = connection.model('Dispatch', dispatchSchema);
  return { Post, Outbox: registerOutbox(connection), Dispatch, ...registerListModels(connection) };
}

export type PostsModels = ReturnType<typeof registerModels>;
