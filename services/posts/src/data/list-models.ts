import { Schema, type Connection } from 'mongoose';
import type { EncodedEntry } from './list-entries.js';

/**
 * The collections of the post list index (see list-index.ts). Every document is written once and
 * never updated: FerretDB 1.x applies concurrent updates of one document as read-modify-write and
 * loses some, while a unique `_id` is enforced atomically.
 */

/**
 * A change of one post (`e`): `_id` = `post:version:l|d`, so deriving the same version twice is a duplicate key.
 * Or the changes of one write of many posts (a bulk create, a batch moved to publishing): their entries as one
 * JSON string (`es`, EncodedEntry[]), `_id` = `b:<first post>:<version>:<count>:<random>`, so a list after an
 * import of 10,000 posts reads a hundred documents, not 10,000.
 */
export interface ListDeltaDoc {
  _id: string;
  workspace_id: number;
  post_id: number;
  e?: EncodedEntry;
  es?: string;
}

/** The entries a delta document holds. */
export function deltaEntries(d: Pick<ListDeltaDoc, 'e' | 'es'>): EncodedEntry[] {
  return d.es ? (JSON.parse(d.es) as EncodedEntry[]) : d.e ? [d.e] : [];
}

/**
 * The claim of one snapshot of a chunk (the workspace's posts with ids in [chunk·span, (chunk+1)·span)):
 * `_id` = `workspace:chunk:seq`; the first insert of a seq wins. `chunk` -1 marks the workspace as
 * backfilled (`_id` = `workspace:built`).
 */
export interface ListSnapshotDoc {
  _id: string;
  workspace_id: number;
  chunk: number;
  seq: number;
  /** The `_id` of the body holding the entries. */
  body: string;
  created_at: Date;
}

/** A snapshot's entries, JSON of EncodedEntry[] (one string: cheap for FerretDB to read and for us to parse). */
export interface ListBodyDoc {
  _id: string;
  workspace_id: number;
  entries: string;
}

export function registerListModels(connection: Connection) {
  const delta = new Schema({ _id: String, workspace_id: Number, post_id: Number, e: Schema.Types.Mixed, es: String }, { collection: 'post_list_deltas', versionKey: false });
  delta.index({ workspace_id: 1 });
  const snapshot = new Schema({ _id: String, workspace_id: Number, chunk: Number, seq: Number, body: String, created_at: Date }, { collection: 'post_list_snapshots', versionKey: false });
  snapshot.index({ workspace_id: 1 });
  // Bodies are read by `_id` only (its index, and its companion on FerretDB).
  const body = new Schema({ _id: String, workspace_id: Number, entries: String }, { collection: 'post_list_bodies', versionKey: false });
  return {
    ListDelta: connection.model('PostListDelta', delta),
    ListSnapshot: connection.model('PostListSnapshot', snapshot),
    ListBody: connection.model('PostListBody', body),
  };
}

export type ListModels = ReturnType<typeof registerListModels>;
