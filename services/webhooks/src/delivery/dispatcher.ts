import { captureOrigin, inSpan, resumeOrigin, SpanKind } from '@spa/telemetry';
import type { Logger } from '@spa/logger';
import { deliverAttempt, sendFirstAttempt } from '../domain/deliver-attempt.js';
import type { Delivery, Webhook } from '../domain/model.js';
import type { FirstAttempts, WebhooksDeps } from '../domain/ports.js';

/** Least time between two passes started by wake-ups (the timer's passes are further apart). */
const PASS_GAP_MS = 50;
/**
 * Deliveries offered from events while there was no room, held here to start as room frees. Each is
 * already stored and due, so one dropped past this bound (or lost in a crash) waits for a pass instead.
 */
const MAX_WAITING = 10_000;
/** Waiting deliveries start with their webhook as read at most this long ago (read again, once per webhook, past it). */
const REREAD_AFTER_MS = 1_000;

/** One webhook's waiting deliveries, oldest first, and the webhook as last read for them. */
interface WaitingQueue {
  deliveries: Map<string, Delivery>;
  webhook: Webhook | Promise<Webhook | null>;
  readAt: number;
}

export interface DispatcherLimits {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Attempts in flight at once per webhook: a slow or dead receiver only ever holds these. */
  perWebhook: number;
  /**
   * First attempts sent from their events (`sendFirst`) out at once, at most: each holds its event
   * unacknowledged, and JetStream stops handing out events at the consumer's max_ack_pending. Past it, a
   * new delivery is stored first, as without room. Unbounded when not given.
   */
  sentFirst?: number;
}

/**
 * Finds due attempts in the store and runs them with bounded concurrency. Holds no state that
 * matters: every delivery lives in MongoDB and every attempt is claimed there, so any number of
 * dispatchers may run and one may be killed at any time. Timing comes from the injected clock;
 * `pass()` can be driven by a test instead of the timer.
 */
export class Dispatcher implements FirstAttempts {
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Of those, first attempts sent from their events (see `DispatcherLimits.sentFirst`). */
  private sentFirstOut = 0;
  private readonly perWebhook = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private passing: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The last pass left due work behind (no room): look again as soon as an attempt ends. */
  private backlog = false;
  /**
   * Webhooks the last pass left out because they were at their own limit, with nothing waiting here: look
   * again once one of them has room, not on every attempt's end while a slow or dead receiver stays at
   * its limit for seconds. One with deliveries waiting here starts those as it frees; anything of it that
   * only the store has (a retry) is found by the timer's pass.
   */
  private excluded = new Set<number>();
  /**
   * Offered deliveries waiting for room, per webhook, oldest first, with the webhook as read for the
   * event: started as attempts end, without a pass (a pass reads every scheduled delivery, since FerretDB
   * pushes down neither sort nor limit). Per webhook, so a slow receiver's queue is passed over whole.
   */
  private readonly waiting = new Map<number, WaitingQueue>();
  private waitingCount = 0;

  constructor(
    private readonly deps: WebhooksDeps,
    private readonly limits: DispatcherLimits,
    private readonly logger: Logger,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => this.poke(), intervalMs);
    this.poke();
  }

  /** Stops looking for work and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    // What waited is stored and due: the next dispatcher's pass finds it.
    this.waiting.clear();
    this.waitingCount = 0;
    await this.passing;
    await this.idle();
  }

  /** Looks for due work now (new deliveries were recorded, or an attempt finished). Never throws. */
  poke(): void {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    this.passing = this.pass()
      .catch((err: unknown) => this.logger.warn({ err }, 'dispatcher: pass failed; will retry'))
      .finally(() => {
        this.passing = null;
        if (this.again) {
          // Coalesce wake-ups: the due query is the store's most expensive read.
          this.again = false;
          setTimeout(() => this.poke(), PASS_GAP_MS).unref();
        }
      });
  }

  /** Starts every due attempt there is room for. */
  async pass(): Promise<void> {
    const free = this.limits.concurrency - this.busy();
    if (free <= 0) {
      this.backlog = true;
      return;
    }
    const busy = [...this.perWebhook].filter(([, n]) => n >= this.limits.perWebhook).map(([id]) => id);
    const limit = Math.max(free * 2, 50);
    const due = await this.deps.store.dueDeliveries(this.deps.clock.now(), limit, busy);
    this.excluded = new Set(busy.filter((id) => !this.waiting.has(id)));
    this.backlog = due.length === limit;
    // The attempts of one webhook started by this pass share one read of it, made now as each would.
    const webhooks = new Map<number, Promise<Webhook | null>>();
    const webhookOf = (id: number) => webhooks.get(id) ?? webhooks.set(id, this.deps.store.getWebhook(id)).get(id)!;
    for (const delivery of due) if (!this.run(delivery, () => webhookOf(delivery.webhookId))) this.backlog = true;
  }

  /**
   * Sends the first attempt of a new delivery from its event now, when there is room, and then stores
   * the delivery with its outcome (`sendFirstAttempt`): null when there is no room now. The delivery
   * keeps the request it was recorded in (as a stored one does), which its retries resume.
   */
  sendFirst(delivery: Delivery, webhook: Webhook): Promise<boolean> | null {
    if (this.stopped || this.inFlight.has(delivery.id) || !this.hasRoom(webhook.id) || this.sentFirstOut >= (this.limits.sentFirst ?? Infinity)) return null;
    this.perWebhook.set(webhook.id, (this.perWebhook.get(webhook.id) ?? 0) + 1);
    this.sentFirstOut++;
    const origin = captureOrigin();
    const held = Object.keys(origin).length ? { ...delivery, origin } : delivery;
    return this.launch(held, () => sendFirstAttempt(this.deps, held, webhook).finally(() => this.sentFirstOut--));
  }

  /**
   * Starts a delivery just recorded from an event, stored due for want of room, as soon as there is
   * room, without waiting for a pass to find it (the webhook as read to record it saves reading it again).
   * The delivery is already stored and scheduled: should it never start here, a pass finds it.
   */
  offer(delivery: Delivery, webhook: Webhook): void {
    // Only a delivery due now: a later attempt keeps its place on the retry schedule.
    if (this.stopped || (delivery.nextAttemptAt?.getTime() ?? Infinity) > this.deps.clock.now().getTime()) return;
    if (this.run(delivery, () => webhook)) return;
    if (this.waitingCount >= MAX_WAITING) {
      this.backlog = true;
      this.poke();
      return;
    }
    const queue = this.waiting.get(webhook.id) ?? this.waiting.set(webhook.id, { deliveries: new Map(), webhook, readAt: this.deps.clock.now().getTime() }).get(webhook.id)!;
    queue.deliveries.set(delivery.id, delivery);
    this.waitingCount++;
  }

  /**
   * Starts the waiting deliveries there is room for now, webhook by webhook (one at its limit keeps its
   * queue). The webhook is read again when its queue's copy is older than REREAD_AFTER_MS (it may have
   * been disabled or changed meanwhile): one read per webhook, shared by what it starts.
   */
  private startWaiting(): void {
    const now = this.deps.clock.now().getTime();
    for (const [webhookId, queue] of this.waiting) {
      const known = () => {
        if (now - queue.readAt >= REREAD_AFTER_MS) {
          queue.webhook = this.deps.store.getWebhook(webhookId);
          queue.readAt = now;
        }
        return queue.webhook;
      };
      for (const delivery of queue.deliveries.values()) {
        if (this.stopped || this.busy() >= this.limits.concurrency) return;
        if (!this.run(delivery, known)) break; // this webhook is at its limit
      }
    }
  }

  private forget(delivery: Delivery): void {
    const queue = this.waiting.get(delivery.webhookId);
    if (!queue?.deliveries.delete(delivery.id)) return;
    this.waitingCount--;
    if (!queue.deliveries.size) this.waiting.delete(delivery.webhookId);
  }

  private busy(): number {
    return this.inFlight.size;
  }

  private hasRoom(webhookId: number): boolean {
    return this.busy() < this.limits.concurrency && (this.perWebhook.get(webhookId) ?? 0) < this.limits.perWebhook;
  }

  /**
   * Starts one attempt if there is room for it; false when there is none (it stays due in the store).
   * `known` gives the webhook (or its read) once the attempt is started.
   */
  private run(delivery: Delivery, known: () => Webhook | Promise<Webhook | null>): boolean {
    if (this.inFlight.has(delivery.id)) return true;
    if (!this.hasRoom(delivery.webhookId)) return false;
    // Started now (from the queue, or found by a pass while it waited there): not again later.
    this.forget(delivery);
    this.perWebhook.set(delivery.webhookId, (this.perWebhook.get(delivery.webhookId) ?? 0) + 1);
    const webhook = known();
    // A failed shared read fails the attempts that share it (each stays scheduled), never unhandled.
    if (webhook instanceof Promise) webhook.catch(() => undefined);
    this.launch(delivery, () => deliverAttempt(this.deps, delivery, webhook));
    return true;
  }

  /**
   * Runs an attempt in room already counted for its webhook, and frees that room when it ends. Returns
   * the attempt's own result; a failure is also logged here (the delivery stays scheduled, or its event is
   * handled again).
   */
  private launch<T>(delivery: Delivery, attempt: () => Promise<T>): Promise<T> {
    const run = resumeOrigin(delivery.origin, () => inSpan('webhook delivery', { kind: SpanKind.CLIENT, attributes: { 'spa.event': delivery.event } }, attempt));
    const task = run
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err, delivery: delivery.id }, 'dispatcher: attempt failed to run; it stays scheduled'),
      )
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.ended(delivery.webhookId);
      });
    this.inFlight.set(delivery.id, task);
    return run;
  }

  /** Room of the webhook freed: start what waits for it. */
  private ended(webhookId: number): void {
    const left = (this.perWebhook.get(webhookId) ?? 1) - 1;
    if (left > 0) this.perWebhook.set(webhookId, left);
    else this.perWebhook.delete(webhookId);
    this.startWaiting();
    if (this.excluded.delete(webhookId) || this.backlog) this.poke();
  }

  /** Resolves when no attempt is in flight (shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight.values());
  }

  /** Resolves when no pass is running and no attempt is in flight (tests that drive the clock). */
  async settle(): Promise<void> {
    while (this.passing || this.inFlight.size) {
      await this.passing;
      await this.idle();
    }
  }
}
