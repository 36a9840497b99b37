import { Schema, type Connection } from 'mongoose';

/**
 * Collections of the analytics database. Every query is an equality on an indexed field that narrows
 * to a small set (a target, a slot, a workspace's month), never a range or sort over history, so it
 * stays fast on MongoDB and on FerretDB (which pushes down equality only).
 */
export function registerModels(connection: Connection) {
  const track = new Schema(
    {
      _id: Number, // post account id
      workspace_id: { type: Number, required: true },
      post_id: { type: Number, required: true },
      social_account_id: { type: Number, required: true },
      platform: { type: String, required: true },
      platform_post_id: { type: String, required: true },
      posted_at: { type: Date, required: true },
      status: { type: String, required: true },
      status_reason: String,
      last: Schema.Types.Mixed,
      counted: Schema.Types.Mixed,
      rated: Schema.Types.Mixed,
      best_time_rate: Number,
      best_time_cell: String,
      dub_link_ids: [String],
      schedule: [{ _id: false, n: { type: Number, required: true }, due_at: { type: Date, required: true }, slot: { type: Number, required: true } }],
      fetch_slots: { type: [Number], default: undefined },
    },
    { collection: 'tracks', versionKey: false, minimize: false },
  );
  track.index({ workspace_id: 1, post_id: 1 });
  // The dispatcher's read: the tracks with a fetch in a slot (a multikey index; on FerretDB, a GIN companion serves the array's containment).
  track.index({ fetch_slots: 1 });
  // Fetches stored one document each by earlier versions (before fetches lived on the track): read by slot until the last is due, never written.
  const fetch = new Schema(
    { _id: String, post_account_id: { type: Number, required: true }, n: { type: Number, required: true }, due_at: { type: Date, required: true }, slot: { type: Number, required: true } },
    { collection: 'fetches', versionKey: false },
  );
  fetch.index({ slot: 1 });
  const cursor = new Schema({ _id: String, slot: { type: Number, required: true } }, { collection: 'cursors', versionKey: false });
  const snapshot = new Schema(
    {
      _id: String, // <post account id>:<n>
      workspace_id: { type: Number, required: true },
      post_id: { type: Number, required: true },
      post_account_id: { type: Number, required: true },
      social_account_id: { type: Number, required: true },
      platform: { type: String, required: true },
      n: { type: Number, required: true },
      impressions: Number,
      likes: Number,
      replies: Number,
      reposts: Number,
      clicks: Number,
      fetched_at: { type: Date, required: true },
    },
    { collection: 'snapshots', versionKey: false },
  );
  snapshot.index({ post_account_id: 1 });
  const month = new Schema(
    {
      _id: String, // <workspace>:<account>:<YYYY-MM>
      workspace_id: { type: Number, required: true },
      social_account_id: { type: Number, required: true },
      platform: { type: String, required: true },
      month: { type: String, required: true },
      days: { type: Schema.Types.Mixed, default: {} },
      reporters: { type: Schema.Types.Mixed, default: {} },
      applied_seq: { type: Number, required: true },
    },
    { collection: 'month_buckets', versionKey: false, minimize: false },
  );
  month.index({ workspace_id: 1, month: 1 });
  const bestTime = new Schema(
    {
      _id: String, // <workspace>:<account>:<YYYY-MM of posting>
      workspace_id: { type: Number, required: true },
      social_account_id: { type: Number, required: true },
      platform: { type: String, required: true },
      month: { type: String, required: true },
      cells: { type: Schema.Types.Mixed, default: {} },
      applied_seq: { type: Number, required: true },
    },
    { collection: 'best_time_months', versionKey: false, minimize: false },
  );
  bestTime.index({ workspace_id: 1, month: 1 });
  const shortLink = new Schema(
    {
      _id: String, // <post account id>:<index of the URL in the target's texts>
      post_account_id: { type: Number, required: true },
      workspace_id: { type: Number, required: true },
      index: { type: Number, required: true },
      original_url: { type: String, required: true },
      short_url: { type: String, required: true },
      dub_link_id: { type: String, required: true },
      created_at: { type: Date, required: true },
    },
    { collection: 'short_links', versionKey: false },
  );
  shortLink.index({ post_account_id: 1 });
  return {
    ShortLink: connection.model('ShortLink', shortLink),
    Track: connection.model('Track', track),
    Fetch: connection.model('Fetch', fetch),
    Cursor: connection.model('Cursor', cursor),
    Snapshot: connection.model('Snapshot', snapshot),
    MonthBucket: connection.model('MonthBucket', month),
    BestTimeBucket: connection.model('BestTimeBucket', bestTime),
  };
}

export type AnalyticsModels = ReturnType<typeof registerModels>;
