import { Schema, type Connection } from 'mongoose';

/** Mongoose schemas of the webhooks database. */
export function registerModels(connection: Connection) {
  const webhookSchema = new Schema(
    {
      _id: Number,
      workspace_id: { type: Number, required: true },
      /** 1..5: the unique (workspace_id, slot) index enforces the per-workspace limit. */
      slot: { type: Number, required: true },
      url: { type: String, required: true },
      events: { type: [String], default: [] },
      enabled: { type: Boolean, required: true },
      disabled_reason: String,
      enabled_at: { type: Date, required: true },
      secret: { type: String, required: true },
      previous_secret: String,
      previous_secret_expires_at: Date,
      created_at: { type: Date, required: true },
    },
    { collection: 'webhooks', versionKey: false },
  );
  webhookSchema.index({ workspace_id: 1, slot: 1 }, { unique: true });

  const deliverySchema = new Schema(
    {
      _id: String,
      webhook_id: { type: Number, required: true },
      workspace_id: { type: Number, required: true },
      event: { type: String, required: true },
      source_key: { type: String, required: true },
      payload: { type: String, required: true },
      status: { type: String, required: true },
      attempts: { type: Number, required: true },
      attempt_limit: { type: Number, required: true },
      next_attempt_at: Date,
      last_error: String,
      last_status_code: Number,
      origin: { requestId: String, traceparent: String, tracestate: String },
      created_at: { type: Date, required: true },
      finished_at: Date,
    },
    { collection: 'deliveries', versionKey: false },
  );
  // One delivery per webhook and source event: handling an event twice creates nothing more.
  deliverySchema.index({ webhook_id: 1, source_key: 1 }, { unique: true });
  deliverySchema.index({ status: 1, next_attempt_at: 1 });
  deliverySchema.index({ webhook_id: 1, created_at: -1 });
  deliverySchema.index({ webhook_id: 1, finished_at: -1 });

  const attemptSchema = new Schema(
    {
      /** `<delivery id>:<attempt number>`: inserting it claims the attempt (its outcome is recorded on the delivery). */
      _id: String,
      delivery_id: { type: String, required: true },
      attempt: { type: Number, required: true },
      claimed_at: { type: Date, required: true },
      claimed_by: { type: String, required: true },
    },
    { collection: 'attempts', versionKey: false },
  );

  return {
    Webhook: connection.model('Webhook', webhookSchema),
    Delivery: connection.model('Delivery', deliverySchema),
    Attempt: connection.model('Attempt', attemptSchema),
  };
}

export type WebhooksModels = ReturnType<typeof registerModels>;
