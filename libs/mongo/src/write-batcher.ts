export interface WriteBatcherLimits {
  /** Writes sent in one store command at most. */
  maxBatch: number;
  /** Commands of this batcher in flight at once; writes made meanwhile wait and go together in the next. */
  maxInFlight: number;
}

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/**
 * Group commit for one kind of write: the writes asked for while the batcher's commands are in flight
 * (or within the same turn of the event loop) go to the store together in one command. Each caller
 * still waits for its own write and gets its own result (`write` answers one result per item, in
 * order), so what a caller knows once its promise resolves is exactly what it knew with a write of
 * its own: the write is durable and its result is known. A failed command fails every write in it.
 */
export class WriteBatcher<T, R> {
  private queue: Array<Pending<T, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly limits: WriteBatcherLimits = { maxBatch: 100, maxInFlight: 2 },
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    // The writes asked for in this turn of the event loop join the command.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length) {
      const batch = this.queue.splice(0, this.limits.maxBatch);
      this.inFlight++;
      Promise.resolve()
        .then(() => this.write(batch.map((p) => p.item)))
        .then(
          (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
          (err: unknown) => batch.forEach((p) => p.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.schedule();
        });
    }
  }
}
