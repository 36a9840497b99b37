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

/**
 * Deletes the documents in one command: a statement per insert they were written in (`batch`, an indexed
 * field shared by the documents of one insert; the ids are matched among that batch's documents), and one by
 * `_id` for a document without. On FerretDB 1.x a delete statement removes any number of documents for
 * ~0.1 ms of store CPU each, where an update changes each document in a PostgreSQL transaction of its own
 * (~1.5 ms each, measured; docs/local-store.md), and so would a statement per document. Multi-document statements
 * (updateEach says why).
 */
export async function deleteByBatch(model: Pick<Model<unknown>, 'bulkWrite'>, docs: ReadonlyArray<{ _id: string; batch?: string | undefined }>): Promise<void> {
  if (!docs.length) return;
  const byBatch = new Map<string, string[]>();
  const single: string[] = [];
  for (const { _id, batch } of docs) {
    if (batch === undefined) single.push(_id);
    else if (byBatch.has(batch)) byBatch.get(batch)!.push(_id);
    else byBatch.set(batch, [_id]);
  }
  await model.bulkWrite([...[...byBatch].map(([batch, ids]) => ({ deleteMany: { filter: { batch, _id: { $in: ids } } } })), ...single.map((_id) => ({ deleteMany: { filter: { _id } } }))], {
    ordered: false,
  });
}
