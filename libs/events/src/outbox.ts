import { randomUUID } from 'node:crypto';
import type { Logger } from '@spa/logger';
import { deleteByBatch, inWaves, insertEach, updateEach, WriteBatcher } from '@spa/mongo';
import { ensureStream, EVENTS_STREAM, jetstream, type NatsConnection } from '@spa/nats';
import { captureOrigin, resumeOrigin, type WorkOrigin } from '@spa/telemetry';
import { LRUCache } from 'lru-cache';
import { Schema, type Connection, type Model } from 'mongoose';
import { decodePublicEvent, encodePublicEvent, publishPublicEvent, type PublicEventRecord } from './public-event.js';

/**
 * How the relay tells, after a crash, whether the change an entry announces landed: the changed document
 * (`collection`, `_id`) has `field` equal to `value` (`eq`), or at least `value` (`gte`: a time a later change may
 * have moved on). `exists`: the entry is itself the change (a unique claim), nothing to check.
 */
export type LandedCheck = { collection: string; id: number | string; field: string; value: Date | string | number | boolean; op: 'eq' | 'gte' } | { exists: true };

export interface QueuedEvent {
  event: PublicEventRecord;
  landedWhen: LandedCheck;
  /**
   * Keep the entry once published (marked sent) instead of removing it: for an event whose id is derived from
   * what it announces and may be queued again later (a run found finished again by a sweep), so the second
   * queueing meets the first entry's id and adds nothing.
   */
  keep?: boolean;
}

interface EntryDoc {
  _id: string;
  /** The protobuf PublicEvent, base64. */
  payload: string;
  state: 'pending' | 'sent' | 'abandoned';
  check: { collection?: string; id?: number | string; field?: string; value?: unknown; op?: 'eq' | 'gte'; exists?: boolean };
  keep: boolean;
  created_at: Date;
  /** The insert (group commit) the entry was written in: the relay removes one insert's entries in one statement. */
  batch?: string;
  origin?: WorkOrigin;
}

/** How long an entry may wait for its change to show before it is taken as never having happened. */
const ABANDON_AFTER_MS = 60_000;
/** Entries checked at once (a read by `_id` each). */
const CHECKS_AT_ONCE = 16;

function registerOutbox(connection: Connection, collection: string): Model<EntryDoc> {
  const existing = connection.models[`EventOutbox:${collection}`];
  if (existing) return existing as Model<EntryDoc>;
  const schema = new Schema<EntryDoc>(
    {
      _id: String,
      payload: { type: String, required: true },
      state: { type: String, required: true },
      check: { type: Schema.Types.Mixed, required: true },
      keep: { type: Boolean, required: true },
      created_at: { type: Date, required: true },
      batch: String,
      origin: { requestId: String, traceparent: String, tracestate: String },
    },
    { collection, versionKey: false, minimize: false },
  );
  schema.index({ state: 1, created_at: 1 });
  schema.index({ batch: 1 });
  return connection.model<EntryDoc>(`EventOutbox:${collection}`, schema);
}

/**
 * The transactional outbox of a service's public events, in its own collection of the service's database.
 * `around` writes each event's entry before the change it announces, makes the change, and publishes the
 * event once the change landed; the relay (every few seconds, and after each change) publishes what a
 * crash or a NATS outage left, checking first that its change landed (`LandedCheck`), and marks abandoned
 * an entry whose change never showed within a minute. So an event is never lost and never invented by a
 * crash. Only the relay updates or removes entries (FerretDB 1.x does not apply concurrent updates of one
 * document atomically), and its publish names the event id as Nats-Msg-Id: a repeat is dropped by the stream.
 */
export class EventOutbox {
  readonly model: Model<EntryDoc>;
  /** The deployment's JOBS_NAMESPACE: names its events' subjects (and their derived ids, `eventIdOf`). */
  readonly namespace: string;
  private readonly connection: Connection;
  private readonly nc: NatsConnection;
  private readonly logger: Logger;
  private readonly clock: { now(): Date };
  private readonly inserts: WriteBatcher<EntryDoc, boolean>;
  /** Entries whose change this process saw land: published without a check. */
  private readonly landed = new LRUCache<string, true>({ max: 100_000 });
  /** Entries whose change is under way here: left to it. */
  private readonly underway = new Set<string>();
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  /** Set by `hold` (tests of a crash between a change and its relay): the relay publishes nothing. */
  private readonly held: boolean;

  constructor(deps: { connection: Connection; nc: NatsConnection; namespace: string; logger: Logger; collection?: string; clock?: { now(): Date }; hold?: boolean }) {
    this.connection = deps.connection;
    this.nc = deps.nc;
    this.namespace = deps.namespace;
    this.logger = deps.logger;
    this.clock = deps.clock ?? { now: () => new Date() };
    this.held = deps.hold ?? false;
    this.model = registerOutbox(deps.connection, deps.collection ?? 'event_outbox');
    this.inserts = new WriteBatcher(
      (entries) => {
        const batch = randomUUID();
        return insertEach(
          this.model,
          entries.map((e) => ({ ...e, batch })),
        );
      },
      { maxBatch: 200, maxInFlight: 2 },
    );
  }

  /**
   * Queues the events, runs the change, and publishes them once it landed. `applied` tells from the write's
   * result whether the change was made (a guarded update that matched nothing): when not, the entries are
   * removed. A write that throws leaves them to the relay, which publishes those whose change landed anyway.
   * An event already queued (the same id) is queued once.
   */
  async around<T>(events: QueuedEvent[], write: () => Promise<T>, applied: (result: T) => boolean = () => true): Promise<T> {
    if (!events.length) return write();
    const ids = events.map((e) => e.event.id);
    for (const id of ids) this.underway.add(id);
    try {
      const queued = await Promise.all(events.map((e) => this.inserts.add(entryOf(e, this.clock.now()))));
      const result = await write();
      if (applied(result)) {
        for (const id of ids) this.landed.set(id, true);
      } else {
        await this.model.deleteMany({ _id: { $in: ids.filter((_, i) => queued[i]) }, state: 'pending' });
      }
      return result;
    } finally {
      for (const id of ids) this.underway.delete(id);
      this.flush();
    }
  }

  /** Queues events whose change needs no check (`exists`): the entry is the change, or announces one already made. */
  async emit(events: PublicEventRecord[], keep = false): Promise<boolean[]> {
    const added = await Promise.all(events.map((event) => this.inserts.add(entryOf({ event, landedWhen: { exists: true }, keep }, this.clock.now()))));
    this.flush();
    return added;
  }

  async start(intervalMs: number): Promise<void> {
    await this.model.createIndexes();
    await ensureStream(this.nc, EVENTS_STREAM);
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
    this.flush();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Starts a pass, or asks the running one to go round again. Never throws. */
  flush(): void {
    if (this.held || !this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.logger.warn({ err }, 'event outbox: pass failed; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.flush();
        }
      });
  }

  /** One pass over the pending entries, oldest first: the landed ones published in order, then removed (or marked sent). */
  private async drain(): Promise<void> {
    const found = await this.model.find({ state: 'pending' }).sort({ created_at: 1 }).limit(500).lean<EntryDoc[]>();
    const entries = found.filter((e) => !this.underway.has(e._id));
    const checked = await inWaves(entries, CHECKS_AT_ONCE, async (entry) => ({ entry, landed: this.landed.has(entry._id) || (await this.check(entry)) }));
    const now = this.clock.now().getTime();
    const abandoned = checked.filter((c) => !c.landed && now - c.entry.created_at.getTime() > ABANDON_AFTER_MS).map((c) => c.entry);
    const publish = checked.filter((c) => c.landed).map((c) => c.entry);
    const js = jetstream(this.nc);
    // Issued in order, so the stream keeps the entries' order.
    const published = await Promise.allSettled(
      publish.map((entry) => {
        const bytes = Buffer.from(entry.payload, 'base64');
        return resumeOrigin(entry.origin, () => publishPublicEvent(js, this.namespace, decodePublicEvent(bytes), bytes));
      }),
    );
    const sent = publish.filter((_, i) => published[i]!.status === 'fulfilled');
    await deleteByBatch(
      this.model,
      sent.filter((e) => !e.keep),
    );
    await updateEach(this.model, [
      ...sent.filter((e) => e.keep).map((e) => ({ filter: { _id: e._id }, update: { $set: { state: 'sent' } } })),
      ...abandoned.map((e) => ({ filter: { _id: e._id }, update: { $set: { state: 'abandoned' } } })),
    ]);
    for (const e of sent) this.landed.delete(e._id);
    for (const e of abandoned) this.logger.warn({ event: e._id }, 'event outbox: change never landed; event dropped');
    const failed = published.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Whether the entry's change shows in its document. */
  private async check(entry: EntryDoc): Promise<boolean> {
    const c = entry.check;
    if (c.exists) return true;
    const filter = { _id: c.id, [c.field!]: c.op === 'gte' ? { $gte: c.value } : c.value };
    const doc = await this.connection.db!.collection(c.collection!).findOne(filter as never, { projection: { _id: 1 } });
    return doc !== null;
  }
}

function entryOf(q: QueuedEvent, now: Date): EntryDoc {
  return {
    _id: q.event.id,
    payload: Buffer.from(encodePublicEvent(q.event)).toString('base64'),
    state: 'pending',
    check: 'exists' in q.landedWhen ? { exists: true } : { ...q.landedWhen },
    keep: q.keep ?? false,
    created_at: now,
    origin: captureOrigin(),
  };
}
