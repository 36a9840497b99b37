import type { Logger } from '@spa/logger';
import { FairQueue, type Queued } from './fair-queue.js';

/** A metric fetch to try again once due: one per try, so recording it is an insert. */
export interface PendingRetry extends Queued {
  /** `<post account>:<n>:try<tries>` (plus `:at<due ms>` for a fetch put off by a rate-limit pause, which is no try). */
  id: string;
  /** The fetch job to send again, encoded as it goes on the wire (its `tries` counted). */
  job: Uint8Array;
}

export interface MetricRetryStore {
  /** Records a retry (a repeat of an id changes nothing). Durable once it resolves. */
  add(retry: PendingRetry): Promise<void>;
  /** The retries due in these seconds (epoch seconds of `dueAt`). */
  dueInSeconds(seconds: number[]): Promise<PendingRetry[]>;
  /** Every retry recorded (a process's first look, and now and then a full one). */
  all(): Promise<PendingRetry[]>;
  /** Forgets retries that were sent again. */
  remove(ids: string[]): Promise<void>;
}

export interface RetryLaneOptions {
  /** Retries sent again per second by this process, at most: what retries can take from new fetches. */
  perSecond: number;
  /** How often the lane looks for due retries. */
  intervalMs: number;
}

/** A pass reads the seconds since the previous one and these before it: a retry written late by a slow or skewed replica is still found. */
const OVERLAP_SECONDS = 5;
/** Past this gap since the last read (a paused process), and this often anyway, the lane reads every retry instead of second by second. */
const FULL_READ_AFTER_MS = 5 * 60_000;
/** A retry sent again is not taken again for this long, though a read made before its removal landed still shows it. */
const SENT_MEMORY_MS = 60_000;

/**
 * The metric fetches that failed transiently (or wait out a rate-limit pause), kept apart from new
 * fetches: the consumer records each in the store with its due time and acknowledges its job at once,
 * so a retry never holds one of the consumer's unacknowledged slots (JetStream's max_ack_pending), which
 * new fetches need. This lane reads what came due (an equality read per second of due time), and sends
 * it again at most `perSecond`, served in turn per platform and, within one, per workspace (FairQueue):
 * one platform's or one workspace's backlog of retries delays another's by at most a round. Every
 * publisher runs one; a retry two of them send is one job (its Nats-Msg-Id names the try).
 */
export class RetryLane {
  private readonly queue = new FairQueue<PendingRetry>();
  private readonly sent = new Map<string, number>();
  private lastRead: number | undefined;
  private lastFullRead = 0;
  private lastPass: number | undefined;
  private tokens = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: MetricRetryStore,
    private readonly send: (retry: PendingRetry) => Promise<void>,
    private readonly clock: { now(): Date },
    private readonly logger: Logger,
    private readonly opts: RetryLaneOptions,
  ) {}

  /** Records a fetch to try again at its due time. */
  defer(retry: PendingRetry): Promise<void> {
    return this.store.add(retry);
  }

  /** Retries read and waiting here (due or not yet). */
  get waiting(): number {
    return this.queue.size;
  }

  start(): void {
    const tick = () => {
      this.running = this.pass()
        .catch((err: unknown) => this.logger.warn({ err }, 'metric retry lane: pass failed; the next one retries'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.opts.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Reads what came due, then sends what the rate allows, in turn; answers how many were sent. */
  async pass(): Promise<number> {
    const now = this.clock.now().getTime();
    await this.read(now);
    // A bucket of at most a second's worth: a quiet spell does not save up a burst.
    this.tokens = Math.min(this.tokens + (this.lastPass === undefined ? this.opts.perSecond : ((now - this.lastPass) / 1000) * this.opts.perSecond), this.opts.perSecond);
    this.lastPass = now;
    const due = this.queue.take(Math.floor(this.tokens), new Date(now));
    if (!due.length) return 0;
    const results = await Promise.allSettled(due.map((r) => this.send(r)));
    const sent = due.filter((_, i) => results[i]!.status === 'fulfilled');
    // What could not be sent waits for the next pass (it stays in the store meanwhile).
    for (const [i, r] of due.entries()) if (results[i]!.status === 'rejected') this.queue.add(r);
    this.tokens -= sent.length;
    for (const r of sent) this.sent.set(r.id, now);
    await this.store.remove(sent.map((r) => r.id));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) this.logger.warn({ err: failed.reason, unsent: due.length - sent.length }, 'metric retry lane: some retries not sent; the next pass retries');
    return sent.length;
  }

  private async read(now: number): Promise<void> {
    for (const [id, at] of this.sent) if (now - at > SENT_MEMORY_MS) this.sent.delete(id);
    const second = Math.floor(now / 1000);
    let found: PendingRetry[];
    if (this.lastRead === undefined || now - this.lastFullRead >= FULL_READ_AFTER_MS || (second - this.lastRead) * 1000 >= FULL_READ_AFTER_MS) {
      found = await this.store.all();
      this.lastFullRead = now;
    } else {
      const seconds: number[] = [];
      for (let s = this.lastRead - OVERLAP_SECONDS; s <= second; s++) seconds.push(s);
      found = await this.store.dueInSeconds(seconds);
    }
    this.lastRead = second;
    for (const r of found) if (!this.sent.has(r.id)) this.queue.add(r);
  }
}
