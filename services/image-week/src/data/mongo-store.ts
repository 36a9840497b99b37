import { IdAllocator, isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { ItemRecord, RunRecord } from '../domain/model.js';
import type { RunStore } from '../domain/ports.js';
import type { Models } from './models.js';

type Doc = Record<string, unknown>;

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A `$set`/`$unset` update from a patch: undefined values are removed from the document. */
function update(patch: Doc): Doc {
  const set: Doc = {};
  const unset: Doc = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) unset[snake(k)] = '';
    else set[snake(k)] = k === 'image' ? imageDoc(v as NonNullable<ItemRecord['image']>) : v;
  }
  return { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) };
}

const imageDoc = (i: NonNullable<ItemRecord['image']>) => ({ url: i.url, r2_key: i.r2Key, width: i.width, height: i.height });

function fromDoc<T>(doc: Doc): T {
  const out: Doc = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k === '_id') out.id = v;
    else if (v === null) continue;
    else out[camel(k)] = v;
  }
  if (out.image) {
    const i = out.image as Doc;
    out.image = { url: i.url, r2Key: i.r2_key, width: i.width, height: i.height };
  }
  return out as T;
}

function toDoc(record: object): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(record)) {
    if (v === undefined) continue;
    if (k === 'id') out._id = v;
    else out[snake(k)] = k === 'image' ? imageDoc(v as NonNullable<ItemRecord['image']>) : v;
  }
  return out;
}

/** Runs and items in MongoDB (any MongoDB-compatible store). */
export class MongoRunStore implements RunStore {
  private readonly ids: IdAllocator;

  constructor(
    connection: Connection,
    private readonly m: Models,
  ) {
    this.ids = new IdAllocator(connection);
  }

  newRunId = () => this.ids.next('image_week_runs');
  newItemIds = (count: number) => this.ids.reserve('image_week_items', count);

  async bindKey(workspaceId: number, key: string, newId: () => Promise<number>): Promise<number> {
    const _id = `${workspaceId}:${key}`;
    const bound = await this.m.RunKey.collection.findOne({ _id } as never);
    if (bound) return bound.run_id as number;
    const id = await newId();
    try {
      await this.m.RunKey.collection.insertOne({ _id, run_id: id, bound_at: new Date() } as never);
      return id;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return (await this.m.RunKey.collection.findOne({ _id } as never))!.run_id as number;
    }
  }

  async insertRun(run: RunRecord): Promise<void> {
    await this.m.Run.collection.insertOne(toDoc(run) as never);
  }

  async deleteRun(workspaceId: number, runId: number): Promise<void> {
    await this.m.Run.collection.deleteOne({ _id: runId, workspace_id: workspaceId } as never);
  }

  async run(workspaceId: number, runId: number): Promise<RunRecord | undefined> {
    const doc = await this.m.Run.collection.findOne({ _id: runId, workspace_id: workspaceId } as never);
    return doc ? fromDoc<RunRecord>(doc) : undefined;
  }

  async runs(workspaceId: number): Promise<RunRecord[]> {
    const docs = await this.m.Run.collection.find({ workspace_id: workspaceId }).toArray();
    return docs.map((d) => fromDoc<RunRecord>(d)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
  }

  async updateRun(runId: number, patch: Partial<RunRecord>): Promise<void> {
    await this.m.Run.collection.updateOne({ _id: runId } as never, update({ ...patch, updatedAt: new Date() }));
  }

  async insertItems(items: ItemRecord[]): Promise<void> {
    if (!items.length) return;
    try {
      await this.m.Item.collection.insertMany(items.map(toDoc) as never[], { ordered: false });
    } catch (err) {
      if (!isDuplicateKeyError(err) && !(err as { writeErrors?: { code: number }[] }).writeErrors?.every((e) => e.code === 11000)) throw err;
    }
  }

  async items(runIds: number[]): Promise<ItemRecord[]> {
    if (!runIds.length) return [];
    const filter = runIds.length === 1 ? { run_id: runIds[0] } : { run_id: { $in: runIds } };
    const docs = await this.m.Item.collection.find(filter as never).toArray();
    return docs.map((d) => fromDoc<ItemRecord>(d));
  }

  async item(runId: number, itemId: number): Promise<ItemRecord | undefined> {
    const doc = await this.m.Item.collection.findOne({ _id: itemId, run_id: runId } as never);
    return doc ? fromDoc<ItemRecord>(doc) : undefined;
  }

  async updateItem(itemId: number, patch: Partial<ItemRecord>): Promise<void> {
    await this.m.Item.collection.updateOne({ _id: itemId } as never, update(patch));
  }

  async stale(before: Date): Promise<{ runs: RunRecord[]; items: ItemRecord[] }> {
    const [runs, items] = await Promise.all([
      this.m.Run.collection
        .find({ planned_at: null, canceled_at: null, error_message: null, created_at: { $lt: before } } as never)
        .limit(100)
        .toArray(),
      this.m.Item.collection
        .find({ status: { $in: ['pending', 'generating', 'verifying'] }, updated_at: { $lt: before } } as never)
        .limit(500)
        .toArray(),
    ]);
    return { runs: runs.map((d) => fromDoc<RunRecord>(d)), items: items.map((d) => fromDoc<ItemRecord>(d)) };
  }
}
