import { randomBytes } from 'node:crypto';
import { createLogger, type Logger } from '@spa/logger';
import { insertEach, isDuplicateKeyError, WriteBatcher } from '@spa/mongo';
import { LRUCache } from 'lru-cache';
import type { Model } from 'mongoose';
import type { Post } from '../domain/model.js';
import { decodeEntry, encodeEntry, ENTRY_SOURCE_FIELDS, entryOfDoc, entryOfPost, mergeEntry, newer, tombstone, type EncodedEntry, type EntrySource, type ListEntry } from './list-entries.js';
import { deltaEntries, type ListDeltaDoc, type ListModels, type ListSnapshotDoc } from './list-models.js';

/**
 * The post list index: what a list filters, sorts and counts on, per post, found by equality on an
 * indexed `workspace_id`, so that a list never asks the store to sort, bound or range-scan a workspace's
 * history (FerretDB 1.24 pushes none of these down and would read every post of the workspace).
 *
 * A workspace's posts are grouped in chunks by post id (`floor(id / CHUNK_SPAN)`). Each chunk has
 * immutable snapshots (a claim in `post_list_snapshots`, the first insert of `workspace:chunk:seq` wins,
 * and a body of encoded entries in `post_list_bodies`); each post write adds an immutable delta. A read
 * takes the latest snapshot of each chunk and every delta, and per post the newest version. Compaction
 * folds deltas into a new snapshot of their chunk and, a grace period later (longer than any read),
 * deletes what that snapshot superseded. No document is ever updated, so nothing depends on FerretDB
 * applying concurrent updates atomically (it does not), and counts are exact by construction.
 */
export const CHUNK_SPAN = 1_000;
/** A read (markers, then bodies, then deltas) never takes this long: superseded documents outlive it. */
const GRACE_MS = 60_000;
/** A workspace with more deltas than this is compacted after the read that saw them. */
const COMPACT_AFTER_DELTAS = 64;
/** …at most this often per workspace and process… */
const COMPACT_AGAIN_AFTER_MS = 10_000;
/**
 * …and after this many writes through one process since its last compaction, or as many as the deltas
 * that compaction read, if more: a compaction reads every delta of the workspace (those it folds stay a
 * grace period), so in a burst of writes a fixed interval would read the burst again and again (10,000
 * posts published at once: 100 compactions reading 490,000 deltas); this way a write costs at most one
 * delta read on average.
 */
const COMPACT_EVERY_WRITES = 200;

const chunkOf = (postId: number): number => Math.floor(postId / CHUNK_SPAN);

interface Snapshot {
  doc: ListSnapshotDoc;
  entries: ListEntry[];
}

/** A workspace's index as one read found it. */
export interface IndexState {
  workspaceId: number;
  /** Whether the workspace's posts stored before the index existed are in it (the backfill ran). */
  built: boolean;
  /** The latest snapshot of each chunk. */
  latest: Map<number, Snapshot>;
  superseded: ListSnapshotDoc[];
  /** Each delta document and the entries it holds (one, or a whole write's). */
  deltas: Array<{ id: string; entries: ListEntry[] }>;
}

export type PostsCollection = Model<EntrySource & Record<string, unknown>>;

export class PostListIndex {
  /** Decoded snapshot bodies (the entries of up to 250,000 posts); a body never changes, so a cached one is never stale. */
  private readonly bodies = new LRUCache<string, ListEntry[]>({ maxSize: 250_000, sizeCalculation: (v) => Math.max(v.length, 1) });
  private readonly running = new Map<number, Promise<void>>();
  /** Per workspace (bounded: the least recently written ones are forgotten): writes since the last compaction, and when that was. */
  private readonly writes = new LRUCache<number, number>({ max: 10_000 });
  private readonly compacted = new LRUCache<number, number>({ max: 10_000 });
  /** Per workspace: the deltas this process's last compaction of it read. */
  private readonly compactedDeltas = new LRUCache<number, number>({ max: 10_000 });
  /** Workspaces whose index this process knows to be built (their `built` mark was seen). */
  private readonly builtKnown = new LRUCache<number, true>({ max: 10_000 });
  /** The deltas of the writes made at the same time (any workspace), inserted together (group commit). */
  private readonly deltaInserts: WriteBatcher<ListDeltaDoc, boolean>;

  constructor(
    private readonly models: ListModels & { Post: PostsCollection },
    private readonly logger: Logger = createLogger('posts-list-index'),
    private readonly clock: { now(): Date } = { now: () => new Date() },
  ) {
    this.deltaInserts = new WriteBatcher((docs) => insertEach(this.models.ListDelta, docs), { maxBatch: 500, maxInFlight: 2 });
  }

  /**
   * Records the entries of posts whose writes have landed (a repeat is harmless); true when one was not
   * recorded before. One post's entry is a delta of its own, named by its version; the entries of a write of
   * many posts are one delta document (`es`), so an import of 10,000 posts leaves a hundred deltas to read,
   * not 10,000. A workspace's first write here builds its index, if nothing has (see `ensureBuilt`).
   */
  async record(workspaceId: number, entries: ListEntry[]): Promise<boolean> {
    if (!entries.length) return false;
    const first = entries[0]!;
    const doc: ListDeltaDoc =
      entries.length === 1
        ? { _id: `${first.id}:${first.version}:${first.gone ? 'd' : 'l'}`, workspace_id: workspaceId, post_id: first.id, e: encodeEntry(first) }
        : {
            _id: `b:${first.id}:${first.version}:${entries.length}:${randomBytes(6).toString('hex')}`,
            workspace_id: workspaceId,
            post_id: first.id,
            es: JSON.stringify(entries.map(encodeEntry)),
          };
    const inserted = await this.deltaInserts.add(doc);
    this.ensureBuilt(workspaceId);
    const n = (this.writes.get(workspaceId) ?? 0) + entries.length;
    this.writes.set(workspaceId, n);
    if (n >= Math.max(COMPACT_EVERY_WRITES, this.compactedDeltas.get(workspaceId) ?? 0)) this.inBackground(workspaceId, () => this.compact(workspaceId));
    return inserted;
  }

  /**
   * Builds the workspace's index in the background unless this process knows it is built: called on its
   * writes, so a workspace's index is built from its first write (a new workspace: nothing but that write to
   * fold in, and the mark) and its first list, even right after an import of thousands of posts, is answered
   * from the index, never by the store's own query over the workspace (which outlasted the deadline).
   */
  private ensureBuilt(workspaceId: number): void {
    if (!this.builtKnown.has(workspaceId)) this.inBackground(workspaceId, () => this.backfill(workspaceId));
  }

  /** Records the entries of posts whose writes have landed, one write per workspace. */
  async recordPosts(posts: Post[]): Promise<void> {
    for (const workspaceId of new Set(posts.map((p) => p.workspaceId))) {
      await this.record(workspaceId, posts.filter((p) => p.workspaceId === workspaceId).map(entryOfPost));
    }
  }

  /** Derives a post's entry again from what is stored now (the post, or its absence) and records it; true when that changed the index. */
  async repair(workspaceId: number, postId: number): Promise<boolean> {
    // By `_id` alone (see post-docs' `unchanged`), the workspace checked here.
    const doc = await this.models.Post.findById(postId, ENTRY_SOURCE_FIELDS).lean<EntrySource>();
    return this.record(workspaceId, [doc?.workspace_id === workspaceId ? entryOfDoc(doc) : tombstone(postId, this.clock.now())]);
  }

  /** Reads a workspace's index: snapshot claims first, then their bodies, then the deltas (see GRACE_MS). */
  async read(workspaceId: number): Promise<IndexState> {
    const markers = await this.models.ListSnapshot.find({ workspace_id: workspaceId }).lean<ListSnapshotDoc[]>();
    const latestDoc = new Map<number, ListSnapshotDoc>();
    const superseded: ListSnapshotDoc[] = [];
    let built = false;
    for (const m of markers) {
      if (m.chunk < 0) {
        built = true;
        this.builtKnown.set(workspaceId, true);
        continue;
      }
      const seen = latestDoc.get(m.chunk);
      if (!seen || m.seq > seen.seq) {
        if (seen) superseded.push(seen);
        latestDoc.set(m.chunk, m);
      } else superseded.push(m);
    }
    const latest = new Map<number, Snapshot>();
    await Promise.all([...latestDoc].map(async ([chunk, doc]) => latest.set(chunk, { doc, entries: await this.body(doc.body) })));
    const deltas = (await this.models.ListDelta.find({ workspace_id: workspaceId }, { e: 1, es: 1 }).lean<Array<Pick<ListDeltaDoc, '_id' | 'e' | 'es'>>>()).map((d) => ({
      id: d._id,
      entries: deltaEntries(d).map(decodeEntry),
    }));
    return { workspaceId, built, latest, superseded, deltas };
  }

  /** Every post of the workspace in the state, newest version each (tombstones included). */
  *entries(state: IndexState): Generator<ListEntry> {
    const byChunk = new Map<number, ListEntry[]>();
    for (const { entries } of state.deltas) {
      for (const entry of entries) {
        const chunk = chunkOf(entry.id);
        const list = byChunk.get(chunk);
        if (list) list.push(entry);
        else byChunk.set(chunk, [entry]);
      }
    }
    for (const [chunk, snapshot] of state.latest) {
      const changes = byChunk.get(chunk);
      if (!changes) yield* snapshot.entries;
      else yield* merged(snapshot.entries, changes).values();
      byChunk.delete(chunk);
    }
    for (const changes of byChunk.values()) yield* merged([], changes).values();
  }

  /** Compacts later, in this process, when the state read shows enough deltas. */
  compactIfDue(state: IndexState): void {
    if (!state.built || state.deltas.length <= COMPACT_AFTER_DELTAS) return;
    // Deltas outlive their compaction by the grace period: do not go over the same ones on every list.
    const now = this.clock.now().getTime();
    if (now - (this.compacted.get(state.workspaceId) ?? 0) < COMPACT_AGAIN_AFTER_MS) return;
    this.compacted.set(state.workspaceId, now);
    this.inBackground(state.workspaceId, () => this.compact(state.workspaceId));
  }

  /**
   * Builds the index of a workspace whose posts were stored before the index existed: every post's entry
   * folded into its chunk's snapshot, then the `built` mark. Idempotent; several replicas may run it at
   * once (each snapshot merges what is there, so whichever wins a chunk holds every post).
   */
  async backfill(workspaceId: number): Promise<void> {
    // The mark, by `_id`: the usual answer, without reading the workspace's deltas.
    if (await this.models.ListSnapshot.exists({ _id: `${workspaceId}:built` })) {
      this.builtKnown.set(workspaceId, true);
      return;
    }
    const state = await this.read(workspaceId);
    if (state.built) return;
    const posts = await this.models.Post.find({ workspace_id: workspaceId }, ENTRY_SOURCE_FIELDS).lean<EntrySource[]>();
    await this.compactState(state, posts.map(entryOfDoc));
    await insertEach(this.models.ListSnapshot, [{ _id: `${workspaceId}:built`, workspace_id: workspaceId, chunk: -1, seq: 0, body: '', created_at: this.clock.now() }]);
    this.builtKnown.set(workspaceId, true);
  }

  /** Backfills a workspace in the background, once at a time per process. */
  backfillInBackground(workspaceId: number): void {
    this.inBackground(workspaceId, () => this.backfill(workspaceId));
  }

  async compact(workspaceId: number): Promise<void> {
    this.writes.delete(workspaceId);
    const state = await this.read(workspaceId);
    // In entries: a write costs at most one entry read on average, however its deltas are grouped.
    this.compactedDeltas.set(
      workspaceId,
      state.deltas.reduce((n, d) => n + d.entries.length, 0),
    );
    if (state.built) await this.compactState(state, []);
  }

  /** Writes a new snapshot of each chunk that has changes, then deletes what older snapshots made redundant. */
  private async compactState(state: IndexState, extra: ListEntry[]): Promise<void> {
    const now = this.clock.now().getTime();
    const changes = new Map<number, ListEntry[]>();
    for (const e of [...extra, ...state.deltas.flatMap((d) => d.entries)]) {
      const chunk = chunkOf(e.id);
      const list = changes.get(chunk);
      if (list) list.push(e);
      else changes.set(chunk, [e]);
    }
    /** Chunks every change of which is in a snapshot older than any read in flight. */
    const settled = new Set<number>();
    for (const [chunk, list] of changes) {
      const current = state.latest.get(chunk);
      const have = new Map((current?.entries ?? []).map((e) => [e.id, e]));
      if (list.some((e) => newer(e, have.get(e.id)))) {
        // Tombstones stay (a few bytes each), so no late delta of a deleted post can bring it back.
        const entries = [...merged(current?.entries ?? [], list).values()];
        await this.writeSnapshot(state.workspaceId, chunk, (current?.doc.seq ?? -1) + 1, entries);
      } else if (current && current.doc.created_at.getTime() < now - GRACE_MS) settled.add(chunk);
    }
    // A delta can go once every chunk it has entries in is settled.
    const stale = state.deltas.filter((d) => d.entries.every((e) => settled.has(chunkOf(e.id)))).map((d) => d.id);
    if (stale.length) await this.models.ListDelta.deleteMany({ workspace_id: state.workspaceId, _id: { $in: stale } });
    const old = state.superseded.filter((s) => (state.latest.get(s.chunk)?.doc.created_at.getTime() ?? now) < now - GRACE_MS);
    for (const s of old) await this.models.ListBody.deleteOne({ _id: s.body });
    if (old.length) await this.models.ListSnapshot.deleteMany({ workspace_id: state.workspaceId, _id: { $in: old.map((s) => s._id) } });
  }

  private async writeSnapshot(workspaceId: number, chunk: number, seq: number, entries: ListEntry[]): Promise<void> {
    const body = `${workspaceId}:${chunk}:${seq}:${randomBytes(6).toString('hex')}`;
    await this.models.ListBody.collection.insertOne({ _id: body as never, workspace_id: workspaceId, entries: JSON.stringify(entries.map(encodeEntry)) });
    try {
      await this.models.ListSnapshot.collection.insertOne({ _id: `${workspaceId}:${chunk}:${seq}` as never, workspace_id: workspaceId, chunk, seq, body, created_at: this.clock.now() });
      this.bodies.set(body, entries);
    } catch (err) {
      // Another compaction claimed this seq first: its snapshot stands, and this body is nobody's.
      await this.models.ListBody.deleteOne({ _id: body });
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  private async body(id: string): Promise<ListEntry[]> {
    const cached = this.bodies.get(id);
    if (cached) return cached;
    const doc = await this.models.ListBody.findOne({ _id: id }, { entries: 1 }).lean<{ entries: string }>();
    if (!doc) throw new Error(`post list index: snapshot body ${id} is missing`);
    const entries = (JSON.parse(doc.entries) as EncodedEntry[]).map(decodeEntry);
    this.bodies.set(id, entries);
    return entries;
  }

  private inBackground(workspaceId: number, work: () => Promise<void>): void {
    if (this.running.has(workspaceId)) return;
    const run = work()
      .catch((err: unknown) => this.logger.warn({ err, workspaceId }, 'post list index: background work failed; a later write or list retries it'))
      .finally(() => this.running.delete(workspaceId));
    this.running.set(workspaceId, run);
  }

  /** Waits for this process's background work (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all(this.running.values());
  }
}

function merged(base: ListEntry[], changes: ListEntry[]): Map<number, ListEntry> {
  const out = new Map(base.map((e) => [e.id, e]));
  for (const e of changes) mergeEntry(out, e);
  return out;
}
