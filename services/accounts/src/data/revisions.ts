import { AppError } from '@spa/errors';
import { isDuplicateKeyError } from '@spa/mongo';
import type { Model } from 'mongoose';

/**
 * One revision of a value: `_id` is "<key>:<rev>" (or "<workspace>:<key>:<rev>" for a log whose keys repeat
 * across workspaces), so each revision number can be taken once.
 */
export interface RevisionDoc<S> {
  _id: string;
  key: string;
  workspace_id: number;
  rev: number;
  /** Absent on revisions older than the latest, and on a tombstone. */
  state?: S;
  /** A tombstone: the value was removed at this revision. */
  deleted?: boolean;
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
 * revision; older ones are emptied after each write (their numbers stay taken). Removal is a revision too
 * (a tombstone), so a change racing a removal either lands before it or finds the value gone.
 */
export class RevisionLog<S extends object> {
  constructor(
    private readonly model: RevisionModel,
    /** Names the value in the error of an exhausted retry, e.g. "Custom rule 7". */
    private readonly describe: (key: string) => string,
    /** Keys are unique only within a workspace (e.g. a platform name): revision ids then carry the workspace. */
    private readonly keysPerWorkspace = false,
  ) {}

  async latest(workspaceId: number, key: string): Promise<S | null> {
    const doc = await this.latestDoc(workspaceId, key);
    return (!doc?.deleted && doc?.state) || null;
  }

  /** The latest state of every value of the workspace, by key (removed values are absent). */
  async latestOfWorkspace(workspaceId: number): Promise<Map<string, S>> {
    const docs = await this.model
      .find({ workspace_id: workspaceId, $or: [{ state: { $exists: true } }, { deleted: true }] })
      .sort({ rev: 1 })
      .lean<Array<RevisionDoc<S>>>();
    const latest = new Map<string, RevisionDoc<S>>();
    for (const d of docs) if ((latest.get(d.key)?.rev ?? -1) < d.rev) latest.set(d.key, d);
    return new Map([...latest].flatMap(([key, d]) => (!d.deleted && d.state ? [[key, d.state] as const] : [])));
  }

  /**
   * Writes the state `change` computes from the latest one (null when there is none yet) as the next
   * revision; `change` may run several times. When it returns null nothing is written and null is returned.
   */
  async change(workspaceId: number, key: string, change: (current: S | null) => S | null): Promise<S | null> {
    const written = await this.write(workspaceId, key, (current) => {
      const next = change(current);
      return next === null ? null : { state: next };
    });
    return written?.state ?? null;
  }

  /** Removes the value (a tombstone revision) and answers its last state; null when it was already gone. */
  async remove(workspaceId: number, key: string): Promise<S | null> {
    let removed: S | null = null;
    await this.write(workspaceId, key, (current) => {
      removed = current;
      return current === null ? null : { deleted: true };
    });
    return removed;
  }

  /** Inserts the next revision `next` computes from the latest state, retrying when another writer took its number. */
  private async write(workspaceId: number, key: string, next: (current: S | null) => { state: S } | { deleted: true } | null): Promise<{ state?: S; deleted?: true } | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.latestDoc(workspaceId, key);
      const body = next((!current?.deleted && current?.state) || null);
      if (body === null) return null;
      const rev = (current?.rev ?? 0) + 1;
      try {
        await this.model.create({ _id: this.keysPerWorkspace ? `${workspaceId}:${key}:${rev}` : `${key}:${rev}`, key, workspace_id: workspaceId, rev, ...body });
      } catch (err) {
        if (isDuplicateKeyError(err)) continue;
        throw err;
      }
      // Older revisions keep their (small) documents: deleting them would free their numbers, and a writer
      // still holding an older read could then take one again and lose the changes made since.
      await this.model.updateMany({ workspace_id: workspaceId, key, rev: { $lt: rev }, state: { $exists: true } }, { $unset: { state: 1 } });
      return body;
    }
    throw new AppError('INVALID_STATE', `${this.describe(key)} is being changed by many requests at once; read it again and retry`);
  }

  /** The highest revision (it has its state, or is a tombstone: only lower ones are emptied). */
  private latestDoc(workspaceId: number, key: string): Promise<RevisionDoc<S> | null> {
    return this.model.findOne({ workspace_id: workspaceId, key }).sort({ rev: -1 }).lean<RevisionDoc<S>>();
  }
}
