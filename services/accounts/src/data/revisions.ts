import { AppError } from '@spa/errors';
import { isDuplicateKeyError } from '@spa/mongo';
import type { Model } from 'mongoose';

/** One revision of a value: `_id` is "<key>:<rev>", so each revision number can be taken once. */
export interface RevisionDoc<S> {
  _id: string;
  key: string;
  workspace_id: number;
  rev: number;
  /** Absent on revisions older than the latest. */
  state?: S;
}

/** The collection of one kind of revisions (the state's shape is the RevisionLog's type parameter). */
export type RevisionModel = Model<RevisionDoc<object>>;

/** Writers racing on one value retry at most this often before giving up with INVALID_STATE. */
const MAX_ATTEMPTS = 25;

/**
 * A value kept as numbered revisions, one document each, so that read-modify-write changes are exact on
 * stores where concurrent updates of one document lose writes (FerretDB 1.x), using only what is atomic
 * there: unique keys. A writer reads the latest revision, computes the next state from it and inserts it
 * under the next number; when another writer took that number first, it reads again and recomputes. So two
 * merges of different fields both survive, and two flips of a flag cancel out. Readers take the highest
 * revision; older ones are emptied after each write (their numbers stay taken).
 */
export class RevisionLog<S extends object> {
  constructor(
    private readonly model: RevisionModel,
    /** Names the value in the error of an exhausted retry, e.g. "Custom rule 7". */
    private readonly describe: (key: string) => string,
  ) {}

  async latest(workspaceId: number, key: string): Promise<S | null> {
    const doc = await this.latestDoc(workspaceId, key);
    return doc?.state ?? null;
  }

  /** The latest state of every value of the workspace, by key. */
  async latestOfWorkspace(workspaceId: number): Promise<Map<string, S>> {
    const docs = await this.model.find({ workspace_id: workspaceId, state: { $exists: true } }).sort({ rev: 1 }).lean<Array<RevisionDoc<S>>>();
    return new Map(docs.flatMap((d) => (d.state ? [[d.key, d.state] as const] : [])));
  }

  /**
   * Writes the state `change` computes from the latest one (null when there is none yet) as the next
   * revision; `change` may run several times. When it returns null nothing is written and null is returned.
   */
  async change(workspaceId: number, key: string, change: (current: S | null) => S | null): Promise<S | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.latestDoc(workspaceId, key);
      const next = change(current?.state ?? null);
      if (next === null) return null;
      const rev = (current?.rev ?? 0) + 1;
      try {
        await this.model.create({ _id: `${key}:${rev}`, key, workspace_id: workspaceId, rev, state: next });
      } catch (err) {
        if (isDuplicateKeyError(err)) continue;
        throw err;
      }
      // Older revisions keep their (small) documents: deleting them would free their numbers, and a writer
      // still holding an older read could then take one again and lose the changes made since.
      await this.model.updateMany({ workspace_id: workspaceId, key, rev: { $lt: rev }, state: { $exists: true } }, { $unset: { state: 1 } });
      return next;
    }
    throw new AppError('INVALID_STATE', `${this.describe(key)} is being changed by many requests at once; read it again and retry`);
  }

  async remove(workspaceId: number, key: string): Promise<void> {
    await this.model.deleteMany({ workspace_id: workspaceId, key });
  }

  /** The highest revision (it always has its state: only lower ones are emptied). */
  private latestDoc(workspaceId: number, key: string): Promise<RevisionDoc<S> | null> {
    return this.model.findOne({ workspace_id: workspaceId, key }).sort({ rev: -1 }).lean<RevisionDoc<S>>();
  }
}
