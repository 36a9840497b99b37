import mongoose, { type Connection } from 'mongoose';
import { countStoreCommands } from './command-metrics.js';

export type { Connection };
export { countStoreCommands, storeCommands } from './command-metrics.js';
export { storeBackend, explainFind, type StoreBackend, type ExplainedPlan } from './store-backend.js';
export { deleteByBatch, inWaves, insertEach, updateEach } from './batch-writes.js';
export { WriteBatcher, type WriteBatcherLimits } from './write-batcher.js';
export { readsIssuedBy, commandsIssuedBy, commandNamesIssuedBy, explainReads, sequentialScans, type IssuedRead } from './issued-reads.js';

/**
 * Opens a connection to one service's own database. The URL may point at MongoDB or any
 * MongoDB-compatible server (FerretDB locally); nothing here knows which.
 */
export async function connectMongo(url: string, dbName: string): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 5_000,
    maxPoolSize: 20,
    autoIndex: false,
    monitorCommands: true,
  });
  await connection.asPromise();
  countStoreCommands(connection);
  return connection;
}

/** Creates the indexes every model of a connection declares (idempotent). */
export async function syncIndexes(connection: Connection): Promise<void> {
  for (const model of Object.values(connection.models)) await model.createIndexes();
}

interface Cursor {
  next: number;
  end: number;
}

/**
 * Allocates public integer ids per sequence (one sequence per collection).
 *
 * Ids are handed out from blocks of `blockSize` consecutive ids. A process owns a block by
 * inserting a document whose `_id` names it (`posts:17`): the unique `_id` index makes the claim
 * exclusive on any MongoDB-compatible server. (A counter updated with `$inc` is not enough: FerretDB
 * 1.x does not apply concurrent updates atomically; measured here, 60 concurrent `$inc` of one
 * counter left it at 2.) Ids are unique and increase within a process; ids left in a block when a
 * process stops are never used, so ids may have gaps and are not globally ordered by creation time.
 */
export class IdAllocator {
  private readonly blocks;
  private readonly cursors = new Map<string, Cursor>();
  private readonly refilling = new Map<string, Promise<void>>();
  private indexed: Promise<unknown> | undefined;

  constructor(
    connection: Connection,
    private readonly blockSize = 50,
  ) {
    this.blocks = connection.collection<{ _id: string; sequence: string; block: number; claimed_at: Date }>('id_blocks');
  }

  /** The next id of a sequence. */
  async next(sequence: string): Promise<number> {
    const [first] = await this.reserve(sequence, 1);
    return first as number;
  }

  /** Reserves `count` ids at once (bulk inserts) and returns them in increasing order. */
  async reserve(sequence: string, count: number): Promise<number[]> {
    if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
    const out: number[] = [];
    while (out.length < count) {
      const cursor = this.cursors.get(sequence);
      if (cursor && cursor.next <= cursor.end) out.push(cursor.next++);
      else await this.refill(sequence);
    }
    return out;
  }

  private refill(sequence: string): Promise<void> {
    let pending = this.refilling.get(sequence);
    if (!pending) {
      pending = this.claimBlock(sequence)
        .then((block) => {
          this.cursors.set(sequence, { next: (block - 1) * this.blockSize + 1, end: block * this.blockSize });
        })
        .finally(() => this.refilling.delete(sequence));
      this.refilling.set(sequence, pending);
    }
    return pending;
  }

  private async claimBlock(sequence: string): Promise<number> {
    this.indexed ??= this.blocks.createIndex({ sequence: 1, block: -1 });
    await this.indexed;
    const [top] = await this.blocks.find({ sequence }).sort({ block: -1 }).limit(1).toArray();
    for (let block = (top?.block ?? 0) + 1; ; block++) {
      try {
        await this.blocks.insertOne({ _id: `${sequence}:${block}`, sequence, block, claimed_at: new Date() });
        return block;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
  }
}

/** True when a driver error is a unique-index violation. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/** The store as a health dependency: a ping round trip (a stopped or unreachable server fails it). */
export function mongoDependency(connection: Connection): { name: string; check(): Promise<void> } {
  return {
    name: 'mongo',
    check: async () => {
      const db = connection.db;
      if (!db || connection.readyState !== 1) throw new Error('not connected');
      await db.admin().command({ ping: 1 });
    },
  };
}
