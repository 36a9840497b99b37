import { captureOrigin } from '@spa/telemetry';
import { IdAllocator, insertEach, isDuplicateKeyError, updateEach, WriteBatcher, type Connection } from '@spa/mongo';
import type { Attempt, Delivery, DeliveryStatus, EventKind, SubscribableKind, Webhook } from '../domain/model.js';
import type { WebhooksStore } from '../domain/ports.js';
import { registerModels, type WebhooksModels } from './models.js';

interface WebhookDoc {
  _id: number;
  workspace_id: number;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason?: string | null;
  enabled_at: Date;
  secret: string;
  previous_secret?: string | null;
  previous_secret_expires_at?: Date | null;
  created_at: Date;
}

interface DeliveryDoc {
  _id: string;
  webhook_id: number;
  workspace_id: number;
  event: string;
  source_key: string;
  payload: string;
  status: string;
  attempts: number;
  attempt_limit: number;
  next_attempt_at?: Date | null;
  last_error?: string | null;
  last_status_code?: number | null;
  created_at: Date;
  finished_at?: Date | null;
  origin?: { requestId?: string; traceparent?: string; tracestate?: string } | null;
}

interface AttemptDoc {
  _id: string;
  delivery_id: string;
  attempt: number;
  claimed_at: Date;
  claimed_by: string;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

function toWebhook(d: WebhookDoc): Webhook {
  return {
    id: d._id,
    workspaceId: d.workspace_id,
    url: d.url,
    events: d.events as SubscribableKind[],
    enabled: d.enabled,
    disabledReason: opt(d.disabled_reason),
    enabledAt: d.enabled_at,
    secret: d.secret,
    previousSecret: opt(d.previous_secret),
    previousSecretExpiresAt: opt(d.previous_secret_expires_at),
    createdAt: d.created_at,
  };
}

function toDelivery(d: DeliveryDoc): Delivery {
  return {
    id: d._id,
    webhookId: d.webhook_id,
    workspaceId: d.workspace_id,
    event: d.event as EventKind,
    sourceKey: d.source_key,
    payload: d.payload,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    attemptLimit: d.attempt_limit,
    nextAttemptAt: opt(d.next_attempt_at),
    lastError: opt(d.last_error),
    lastStatusCode: opt(d.last_status_code),
    createdAt: d.created_at,
    finishedAt: opt(d.finished_at),
    ...(d.origin ? { origin: { requestId: opt(d.origin.requestId), traceparent: opt(d.origin.traceparent), tracestate: opt(d.origin.tracestate) } } : {}),
  };
}

const WEBHOOK_FIELDS: Record<string, string> = {
  url: 'url',
  events: 'events',
  enabled: 'enabled',
  disabledReason: 'disabled_reason',
  enabledAt: 'enabled_at',
  secret: 'secret',
  previousSecret: 'previous_secret',
  previousSecretExpiresAt: 'previous_secret_expires_at',
};
const DELIVERY_FIELDS: Record<string, string> = {
  event: 'event',
  sourceKey: 'source_key',
  payload: 'payload',
  status: 'status',
  attempts: 'attempts',
  attemptLimit: 'attempt_limit',
  nextAttemptAt: 'next_attempt_at',
  lastError: 'last_error',
  lastStatusCode: 'last_status_code',
  createdAt: 'created_at',
  finishedAt: 'finished_at',
};

/** A patch in domain names as `$set` / `$unset` (undefined values are unset). */
function toUpdate(patch: object, fields: Record<string, string>): Record<string, Record<string, unknown>> {
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, ''> = {};
  for (const [key, value] of Object.entries(patch)) {
    const field = fields[key];
    if (!field) continue;
    if (value === undefined) $unset[field] = '';
    else $set[field] = value;
  }
  return { ...(Object.keys($set).length ? { $set } : {}), ...(Object.keys($unset).length ? { $unset } : {}) };
}

type Update = { filter: Record<string, unknown>; update: Record<string, unknown> };

/** The document without its undefined fields (the driver would store them as null). */
function defined<D extends object>(doc: D): D {
  return Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined)) as D;
}

function toAttempt(d: AttemptDoc): Attempt {
  return { deliveryId: d.delivery_id, attempt: d.attempt, claimedAt: d.claimed_at, claimedBy: d.claimed_by };
}

export class MongoWebhooksStore implements WebhooksStore {
  readonly models: WebhooksModels;
  private readonly ids: IdAllocator;

  /**
   * The writes of the delivery path, each batched with the same writes of other deliveries made at the
   * same time (one event's deliveries, the claims of one pass, the outcomes of attempts that ended
   * together, recorded on their deliveries): one store command for many deliveries, each caller still
   * waiting for its own write.
   */
  private readonly deliveryInserts: WriteBatcher<DeliveryDoc, boolean>;
  private readonly attemptClaims: WriteBatcher<AttemptDoc, boolean>;
  private readonly deliveryUpdates: WriteBatcher<Update, void>;
  /**
   * The `subscribers` reads asked for at the same time (concurrent events, of one workspace or many) go
   * to the store as one find: group commit applied to a read, so every read starts after it was asked
   * for and nothing read is kept beyond it.
   */
  private readonly subscriberReads: WriteBatcher<{ workspaceId: number; event: string }, Webhook[]>;

  constructor(connection: Connection) {
    this.models = registerModels(connection);
    this.ids = new IdAllocator(connection);
    this.deliveryInserts = new WriteBatcher((docs) => insertEach(this.models.Delivery, docs));
    this.attemptClaims = new WriteBatcher((docs) => insertEach(this.models.Attempt, docs));
    // By `_id` equality, one multi-document statement each (FerretDB: see updateEach).
    this.deliveryUpdates = new WriteBatcher(async (updates) => {
      await updateEach(this.models.Delivery, updates);
      return updates.map(() => undefined);
    });
    this.subscriberReads = new WriteBatcher((asks) => this.readSubscribers(asks));
  }

  nextWebhookId(): Promise<number> {
    return this.ids.next('webhooks');
  }

  async insertWebhook(w: Webhook, slot: number): Promise<boolean> {
    try {
      await this.models.Webhook.create({
        _id: w.id,
        workspace_id: w.workspaceId,
        slot,
        url: w.url,
        events: w.events,
        enabled: w.enabled,
        enabled_at: w.enabledAt,
        secret: w.secret,
        created_at: w.createdAt,
      });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async getWebhook(id: number): Promise<Webhook | null> {
    const doc = await this.models.Webhook.findById(id).lean<WebhookDoc>();
    return doc ? toWebhook(doc) : null;
  }

  async listWebhooks(workspaceId: number): Promise<Webhook[]> {
    return (await this.models.Webhook.find({ workspace_id: workspaceId }).sort({ _id: 1 }).lean<WebhookDoc[]>()).map(toWebhook);
  }

  async updateWebhook(id: number, patch: Partial<Webhook>): Promise<Webhook | null> {
    const doc = await this.models.Webhook.findByIdAndUpdate(id, toUpdate(patch, WEBHOOK_FIELDS), { returnDocument: 'after' }).lean<WebhookDoc>();
    return doc ? toWebhook(doc) : null;
  }

  async deleteWebhook(id: number): Promise<boolean> {
    const { deletedCount } = await this.models.Webhook.deleteOne({ _id: id });
    // The webhook first: from then on no delivery is recorded for it, and a due one is canceled when its attempt finds it gone.
    const deliveries = (await this.models.Delivery.find({ webhook_id: id }, { _id: 1 }).lean<Array<{ _id: string }>>()).map((d) => d._id);
    for (let i = 0; i < deliveries.length; i += 500) await this.models.Attempt.deleteMany({ delivery_id: { $in: deliveries.slice(i, i + 500) } });
    await this.models.Delivery.deleteMany({ webhook_id: id });
    return deletedCount > 0;
  }

  /** Shares one read with the other events being handled at the same time (see `subscriberReads`). */
  subscribers(workspaceId: number, event: string): Promise<Webhook[]> {
    return this.subscriberReads.add({ workspaceId, event });
  }

  /**
   * One workspace is an equality on `workspace_id` (indexed; a GIN companion on FerretDB). Several are one
   * `$in` read: an index read on MongoDB; on FerretDB, which does not push `$in` down to PostgreSQL, a read of
   * the enabled webhooks, a collection that grows with workspaces (5 webhooks each at most), never with
   * history, and is read once for the whole batch instead of once per event.
   */
  private async readSubscribers(asks: Array<{ workspaceId: number; event: string }>): Promise<Webhook[][]> {
    const workspaces = [...new Set(asks.map((a) => a.workspaceId))];
    const docs = await this.models.Webhook.find({ workspace_id: workspaces.length === 1 ? workspaces[0] : { $in: workspaces }, enabled: true })
      .sort({ _id: 1 })
      .lean<WebhookDoc[]>();
    return asks.map((a) => docs.filter((d) => d.workspace_id === a.workspaceId && d.events.includes(a.event)).map(toWebhook));
  }

  /**
   * Batched with the deliveries recorded at the same time (one event's, or concurrent events'). Stored
   * with the request it came from: the delivery's own, or else the one it is being recorded in.
   */
  insertDelivery(d: Delivery): Promise<boolean> {
    const origin = d.origin ?? captureOrigin();
    return this.deliveryInserts.add(
      defined<DeliveryDoc>({
        _id: d.id,
        webhook_id: d.webhookId,
        workspace_id: d.workspaceId,
        event: d.event,
        source_key: d.sourceKey,
        payload: d.payload,
        status: d.status,
        attempts: d.attempts,
        attempt_limit: d.attemptLimit,
        next_attempt_at: d.nextAttemptAt,
        last_error: d.lastError,
        last_status_code: d.lastStatusCode,
        created_at: d.createdAt,
        finished_at: d.finishedAt,
        origin: Object.keys(origin).length ? origin : undefined,
      }),
    );
  }

  async getDelivery(id: string): Promise<Delivery | null> {
    const doc = await this.models.Delivery.findById(id).lean<DeliveryDoc>();
    return doc ? toDelivery(doc) : null;
  }

  async listDeliveries(webhookId: number, limit: number): Promise<Delivery[]> {
    const docs = await this.models.Delivery.find({ webhook_id: webhookId }).sort({ created_at: -1, _id: -1 }).limit(limit).lean<DeliveryDoc[]>();
    return docs.map(toDelivery);
  }

  async dueDeliveries(now: Date, limit: number, excludeWebhookIds: number[]): Promise<Delivery[]> {
    const filter: Record<string, unknown> = { status: 'scheduled', next_attempt_at: { $lte: now } };
    if (excludeWebhookIds.length) filter.webhook_id = { $nin: excludeWebhookIds };
    const docs = await this.models.Delivery.find(filter).sort({ next_attempt_at: 1 }).limit(limit).lean<DeliveryDoc[]>();
    return docs.map(toDelivery);
  }

  /** Batched with the delivery updates made at the same time (claimed attempts moving on, outcomes). */
  async updateDelivery(id: string, patch: Partial<Delivery>): Promise<void> {
    const update = toUpdate(patch, DELIVERY_FIELDS);
    if (Object.keys(update).length) await this.deliveryUpdates.add({ filter: { _id: id }, update });
  }

  async recentResults(webhookId: number, since: Date, limit: number): Promise<DeliveryStatus[]> {
    const docs = await this.models.Delivery.find({ webhook_id: webhookId, status: { $in: ['succeeded', 'failed'] }, finished_at: { $gte: since }, event: { $ne: 'webhook.test' } })
      .sort({ finished_at: -1 })
      .limit(limit)
      .lean<Array<{ status: DeliveryStatus }>>();
    return docs.map((d) => d.status);
  }

  /** Batched with the claims made at the same time (one pass's attempts); each claim is still won once. */
  claimAttempt(a: Attempt): Promise<boolean> {
    return this.attemptClaims.add({ _id: `${a.deliveryId}:${a.attempt}`, delivery_id: a.deliveryId, attempt: a.attempt, claimed_at: a.claimedAt, claimed_by: a.claimedBy });
  }

  async getAttempt(deliveryId: string, attempt: number): Promise<Attempt | null> {
    const doc = await this.models.Attempt.findById(`${deliveryId}:${attempt}`).lean<AttemptDoc>();
    return doc ? toAttempt(doc) : null;
  }
}
