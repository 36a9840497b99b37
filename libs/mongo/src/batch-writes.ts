import type { Model, mongo } from 'mongoose';

/**
 * Inserts the documents in one write, each on its own (unordered): per document, true when it was
 * inserted, false when its unique key was already taken. That is a batch of claims by unique insert,
 * the one write FerretDB 1.x makes atomic. Any other failure is thrown.
 */
export async function insertEach<D extends { _id: string | number }>(model: Pick<Model<unknown>, 'db' | 'collection'>, docs: D[]): Promise<boolean[]> {
  if (!docs.length) return [];
  try {
    await model.db.db!.collection<D>(model.collection.collectionName).insertMany(docs as mongo.OptionalUnlessRequiredId<D>[], { ordered: false });
    return docs.map(() => true);
  } catch (err) {
    type WriteError = { index: number; code?: number };
    const reported = (err as { writeErrors?: WriteError | WriteError[] }).writeErrors;
    const writeErrors = reported === undefined ? [] : Array.isArray(reported) ? reported : [reported];
    if (!writeErrors.length || writeErrors.some((w) => w.code !== 11000)) throw err;
    const taken = new Set(writeErrors.map((w) => w.index));
    return docs.map((_, i) => !taken.has(i));
  }
}

/**
 * Applies the updates in one command, each statement to the document its filter names: answers how
 * many documents matched. Each is sent as a multi-document update on purpose: FerretDB 1.x keeps the
 * PostgreSQL connection of a single-document update statement until the whole command ends (it stops
 * reading after the first match), so a command of ~50 of them exhausts its connection pool and hangs
 * the server for every client; a multi-document statement reads its match to the end and lets the
 * connection go. With a filter on `_id` both match at most one document.
 */
export async function updateEach(model: Pick<Model<unknown>, 'bulkWrite'>, updates: Array<{ filter: Record<string, unknown>; update: Record<string, unknown> }>): Promise<number> {
  if (!updates.length) return 0;
  const result = await model.bulkWrite(
    updates.map(({ filter, update }) => ({ updateMany: { filter, update } })),
    { ordered: false },
  );
  return result.matchedCount;
}

/**
 * Runs `call` for every item, at most `width` at a time (in waves), answering in order: many equality
 * reads at once without flooding the store. FerretDB 1.x serves every command from a pool of 50
 * PostgreSQL connections, and a burst of hundreds of commands from one process queues every other
 * client behind it.
 */
export async function inWaves<T, R>(items: readonly T[], width: number, call: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(call))));
  return out;
}
