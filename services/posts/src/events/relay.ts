import { resumeOrigin } from '@spa/telemetry';
import type { Logger } from '@spa/logger';
import { deleteByBatch, inWaves, updateEach } from '@spa/mongo';
import { publishPublicEvent } from '@spa/events';
import { ensureStream, EVENTS_STREAM, jetstream, POSTS_STREAM, publishEvent, type NatsConnection } from '@spa/nats';
import { ENTRY_SOURCE_FIELDS, entryOfDoc, tombstone, type EntrySource } from '../data/list-entries.js';
import type { PostListIndex } from '../data/list-index.js';
import type { PostsModels } from '../data/models.js';
import { entryWorkspaceId, LandedWrites, type OutboxEntry } from '../data/outbox.js';
import { publicEventsOf } from './public-events.js';

/** Entries checked at once (a read of the post each, a repair insert when it landed). */
const CHECKS_AT_ONCE = 16;
/** How long an entry may wait for its change to show before it is taken as never having happened. */
const ABANDON_AFTER_MS = 60_000;

/**
 * Publishes the outbox to JetStream. Runs after each write and every few seconds, so an event
 * whose publish failed, or whose process crashed before publishing, still goes out; Nats-Msg-Id
 * makes a repeated publish harmless.
 */
export class EventRelay {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly models: PostsModels;
  private readonly nc: NatsConnection;
  private readonly logger: Logger;
  private readonly clock: { now(): Date };
  private readonly listIndex: PostListIndex;
  private readonly onListRepaired: (workspaceId: number) => Promise<void>;
  private readonly landed: LandedWrites;
  private readonly deployment: string | undefined;
  private readonly held: boolean;

  constructor(deps: {
    models: PostsModels;
    /** The store's list index (one per process: its body cache and compaction counts are shared). */
    listIndex: PostListIndex;
    nc: NatsConnection;
    logger: Logger;
    clock?: { now(): Date };
    /** Called for the workspace of each change this process did not see land (its write may have died before telling the list caches): cached pages of it are stale. */
    onListRepaired?: (workspaceId: number) => Promise<void>;
    /** The entries whose writes this process saw land, list entry included (the store's). */
    landed?: LandedWrites;
    /** The deployment's JOBS_NAMESPACE, named on every event (consumers of other deployments skip it); it names the public events' subjects too. */
    deployment?: string;
    /** Tests of a crash only: publish nothing (the entries wait for the next process). */
    hold?: boolean;
  }) {
    this.held = deps.hold ?? false;
    this.deployment = deps.deployment;
    this.models = deps.models;
    this.listIndex = deps.listIndex;
    this.nc = deps.nc;
    this.logger = deps.logger;
    this.clock = deps.clock ?? { now: () => new Date() };
    this.onListRepaired = deps.onListRepaired ?? (async () => undefined);
    this.landed = deps.landed ?? new LandedWrites();
  }

  async start(intervalMs: number): Promise<void> {
    await ensureStream(this.nc, POSTS_STREAM);
    if (this.deployment) await ensureStream(this.nc, EVENTS_STREAM);
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
    this.flush();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Starts a pass, or asks the running one to go round again. Never throws. */
  flush(): void {
    if (this.held) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.logger.warn({ err }, 'event relay: pass failed; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.flush();
        }
      });
  }

  /**
   * One pass over the pending entries, oldest first. An entry whose write this process saw land (and
   * record its list entry) is published as it is; one whose write is under way here is left to it; any
   * other has its post read (concurrently, by `_id`)
   * to tell whether its change landed, and its list entry derived again. The landed ones are published
   * in order, then removed in one command (a statement per insert they were written in, `batch`: on FerretDB
   * 1.x a delete statement removes many documents for the cost of a few, where an update changes each in a
   * transaction of its own); an entry whose change never landed is marked abandoned.
   */
  private async drain(): Promise<void> {
    const js = jetstream(this.nc);
    const found = await this.models.Outbox.find({ state: 'pending' }).sort({ created_at: 1 }).limit(500).lean<OutboxEntry[]>();
    // An entry whose write is under way here is left to it: it has not landed yet, and reading its post would tell nothing.
    const entries = found.filter((e) => !this.landed.isUnderway(e._id));
    // The posts deleted after a change still waiting here (a deletion's entry is written before the deletion):
    // such a change is not taken for one that never landed because its post is gone.
    const deletedAfter = new Map<number, number>();
    for (const e of found) if (e.subject === 'posts.post.deleted') deletedAfter.set(e.post_id, e.created_at.getTime());
    const checked = await inWaves(entries, CHECKS_AT_ONCE, async (entry) => (this.landed.has(entry._id) ? { entry, landed: true } : this.check(entry, deletedAfter)));
    const now = this.clock.now();
    // A change that has not landed (yet) past the grace period never will: its write failed.
    const abandoned = checked.filter((c) => !c.landed && now.getTime() - c.entry.created_at.getTime() > ABANDON_AFTER_MS).map((c) => c.entry._id);
    const publish = checked.filter((c) => c.landed).map((c) => c.entry);
    // Issued in order, so the streams keep the entries' order; Nats-Msg-Id makes a repeat harmless. Each entry's
    // public events (the event log) go out with it: the entry is done once all of them are stored.
    const published = await Promise.allSettled(
      publish.map((entry) =>
        resumeOrigin(entry.origin, () => {
          const deployment = this.deployment;
          return Promise.all([
            publishEvent(js, entry.subject, Buffer.from(entry.payload, 'base64'), entry._id, deployment),
            ...(deployment ? publicEventsOf(entry, deployment).map((e) => publishPublicEvent(js, deployment, e)) : []),
          ]);
        }),
      ),
    );
    const sent = publish.filter((_, i) => published[i]!.status === 'fulfilled');
    await deleteByBatch(this.models.Outbox, sent);
    await updateEach(
      this.models.Outbox,
      abandoned.map((id) => ({ filter: { _id: id }, update: { $set: { state: 'abandoned' } } })),
    );
    for (const { _id } of sent) this.landed.delete(_id);
    for (const id of abandoned) this.logger.warn({ event: id }, 'event relay: change never landed; event dropped');
    const failed = published.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Whether an entry's change has landed (its post shows it, or the post is gone and a deletion queued after the
   * change removed it), its list entry repaired if so.
   */
  private async check(entry: OutboxEntry, deletedAfter: Map<number, number>): Promise<{ entry: OutboxEntry; landed: boolean }> {
    const post = await this.models.Post.findById(entry.post_id, ENTRY_SOURCE_FIELDS).lean<EntrySource>();
    const deletedLater = (deletedAfter.get(entry.post_id) ?? -1) >= entry.created_at.getTime();
    const landed = entry.subject === 'posts.post.deleted' ? !post : post ? post.updated_at.getTime() >= entry.post_updated_at.getTime() : deletedLater;
    if (landed) await this.repairListIndex(entry, post);
    return { entry, landed };
  }

  /**
   * The post's list index entry, derived again from the post as it is now (or its absence): the write
   * that queued this event may have crashed before recording it, or before telling the list caches. A repeat is a duplicate key; a stale
   * derivation loses to the newer version already recorded; a deleted post's tombstone is dated after
   * the post's last version, so no stale entry brings it back.
   */
  private async repairListIndex(entry: OutboxEntry, post: EntrySource | null): Promise<void> {
    const workspaceId = post ? post.workspace_id : entryWorkspaceId(entry);
    const at = Math.max(this.clock.now().getTime(), entry.post_updated_at.getTime() + 1);
    await this.listIndex.record(workspaceId, [post ? entryOfDoc(post) : tombstone(entry.post_id, new Date(at))]);
    // Whether its entry was there or not, the write may have died before moving the list version on: cached
    // pages from before it would be served beside fresh ones (a post repeated, another skipped across pages).
    await this.onListRepaired(workspaceId);
  }
}
