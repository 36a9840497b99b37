import mongoose, { type Connection } from 'mongoose';

export type { Connection };

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
  });
  await connection.asPromise();
  return connection;
}

/** Creates the indexes every model of a connection declares (idempotent). */
export async function syncIndexes(connection: Connection): Promise<void> {
  for (const model of Object.values(connection.models)) await model.createIndexes();
}

/** Allocates public integer ids per collection from a counters collection with an atomic $inc. */
export class IdAllocator {
  private readonly counters;

  constructor(connection: Connection) {
    this.counters = connection.collection<{ _id: string; seq: number }>('counters');
  }

  /** The next id of a sequence. */
  async next(sequence: string): Promise<number> {
    const [first] = await this.reserve(sequence, 1);
    return first as number;
  }

  /** Reserves `count` consecutive ids at once (bulk inserts) and returns them in order. */
  async reserve(sequence: string, count: number): Promise<number[]> {
    if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
    const doc = await this.counters.findOneAndUpdate(
      { _id: sequence },
      { $inc: { seq: count } },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new Error(`id allocation failed for ${sequence}`);
    const last = doc.seq;
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
  }
}

/** True when a driver error is a unique-index violation. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
