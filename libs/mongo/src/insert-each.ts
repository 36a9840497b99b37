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
