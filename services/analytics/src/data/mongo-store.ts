import { insertEach, inWaves, updateEach, WriteBatcher, type Connection } from '@spa/mongo';
import type { Platform } from '@spa/vocabulary';
import { scheduledFetch, UNREPORTED, type BestTimeBucket, type DayTotals, type Metrics, type MonthBucket, type RateTerms, type ScheduledFetch, type Snapshot, type Track } from '../domain/model.js';
import type { AnalyticsStore } from '../domain/ports.js';
import { registerModels, type AnalyticsModels } from './models.js';

interface TrackDoc {
  _id: number;
  workspace_id: number;
  post_id: number;
  social_account_id: number;
  platform: string;
  platform_post_id: string;
  posted_at: Date;
  status: Track['status'];
  status_reason?: string | null;
  last?: { n: number; metrics: Metrics; fetched_at: Date } | null;
  counted?: Metrics | null;
  rated?: RateTerms | null;
  best_time_rate?: number | null;
  best_time_cell?: string | null;
  dub_link_ids?: string[];
  schedule?: Array<{ n: number; due_at: Date; slot: number }>;
  /** The slots of the schedule, indexed (one array element per fetch): kept while the track is active. */
  fetch_slots?: number[];
}

const toTrack = (d: TrackDoc): Track => ({
  postAccountId: d._id,
  workspaceId: d.workspace_id,
  postId: d.post_id,
  socialAccountId: d.social_account_id,
  platform: d.platform as Platform,
  platformPostId: d.platform_post_id,
  postedAt: d.posted_at,
  status: d.status,
  statusReason: d.status_reason ?? undefined,
  last: d.last ? { n: d.last.n, metrics: storedCounts(d.last.metrics), fetchedAt: new Date(d.last.fetched_at) } : undefined,
  counted: d.counted ? storedCounts(d.counted) : undefined,
  rated: d.rated ?? undefined,
  bestTimeRate: d.best_time_rate ?? undefined,
  bestTimeCell: d.best_time_cell ?? undefined,
  dubLinkIds: d.dub_link_ids?.length ? d.dub_link_ids : undefined,
  schedule: d.schedule?.map((f) => ({ n: f.n, dueAt: new Date(f.due_at), slot: f.slot })),
});

const toTrackDoc = (t: Track): TrackDoc => ({
  _id: t.postAccountId,
  workspace_id: t.workspaceId,
  post_id: t.postId,
  social_account_id: t.socialAccountId,
  platform: t.platform,
  platform_post_id: t.platformPostId,
  posted_at: t.postedAt,
  status: t.status,
  status_reason: t.statusReason ?? null,
  last: t.last ? { n: t.last.n, metrics: t.last.metrics, fetched_at: t.last.fetchedAt } : null,
  counted: t.counted ?? null,
  rated: t.rated ?? null,
  best_time_rate: t.bestTimeRate ?? null,
  best_time_cell: t.bestTimeCell ?? null,
  ...(t.dubLinkIds?.length ? { dub_link_ids: t.dubLinkIds } : {}),
  ...(t.schedule ? { schedule: t.schedule.map((f) => ({ n: f.n, due_at: f.dueAt, slot: f.slot })) } : {}),
  // A track that is no longer active is no longer found by the dispatcher's slot read.
  ...(t.schedule && t.status === 'active' ? { fetch_slots: [...new Set(t.schedule.map((f) => f.slot))] } : {}),
});

/** Counts as stored: a count stored as null (or missing) was not reported by the platform. */
const storedCounts = (d: Partial<Record<keyof Metrics, number | null>>): Metrics => ({
  impressions: d.impressions ?? UNREPORTED.impressions,
  likes: d.likes ?? UNREPORTED.likes,
  replies: d.replies ?? UNREPORTED.replies,
  reposts: d.reposts ?? UNREPORTED.reposts,
  clicks: d.clicks ?? UNREPORTED.clicks,
});

/**
 * A day of a month bucket as stored: its sums, or the plain counts kept by versions before unreported counts were
 * told apart from 0 (taken as reported values, with the posts that reported them not known: none).
 */
type StoredDay = DayTotals | Record<keyof Metrics, number>;

function storedDay(d: StoredDay): DayTotals {
  if ('values' in d) return { values: storedCounts(d.values), reportedBy: d.reportedBy, rated: d.rated };
  return {
    values: storedCounts(d),
    reportedBy: { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 },
    rated: { impressions: d.impressions, engagements: d.likes + d.replies + d.reposts + d.clicks },
  };
}

/** A fetch stored as its own document, as earlier versions scheduled them (see `fetchesInSlot`). */
interface LegacyFetchDoc {
  post_account_id: number;
  n: number;
  due_at: Date;
}

/**
 * The analytics store in MongoDB (or FerretDB): claims and snapshots by unique id, buckets as
 * single-document writes. Tracks, each with its fetch schedule, are group-committed: the inserts of
 * the terminal events handled at once (16 in parallel) go to the store together in one command (an
 * insert by id, so a repeated event's are duplicates, and nothing is written twice).
 */
export class MongoAnalyticsStore implements AnalyticsStore {
  readonly models: AnalyticsModels;
  private readonly trackInserts: WriteBatcher<TrackDoc, boolean>;
  /** Tracks ended by results stored at the same time, one command (a statement per track, by `_id`). */
  private readonly trackEnds: WriteBatcher<{ filter: Record<string, unknown>; update: Record<string, unknown> }, void>;

  constructor(connection: Connection) {
    this.models = registerModels(connection);
    this.trackInserts = new WriteBatcher((docs) => insertEach(this.models.Track, docs), { maxBatch: 200, maxInFlight: 2 });
    this.trackEnds = new WriteBatcher(
      async (updates) => {
        await updateEach(this.models.Track, updates);
        return updates.map(() => undefined);
      },
      { maxBatch: 100, maxInFlight: 2 },
    );
  }

  insertTrack(track: Track): Promise<boolean> {
    return this.trackInserts.add(toTrackDoc(track));
  }

  async getTrack(postAccountId: number): Promise<Track | null> {
    const doc = await this.models.Track.findOne({ _id: postAccountId }).lean<TrackDoc>();
    return doc ? toTrack(doc) : null;
  }

  async saveTrack(track: Track, ifStatus?: Track['status']): Promise<void> {
    await this.models.Track.replaceOne({ _id: track.postAccountId, ...(ifStatus ? { status: ifStatus } : {}) }, toTrackDoc(track));
  }

  async endTrack(postAccountId: number, status: 'gone' | 'disconnected', reason: string | undefined): Promise<void> {
    // Without its slots the dispatcher no longer finds it (see toTrackDoc).
    await this.trackEnds.add({ filter: { _id: postAccountId }, update: { $set: { status, status_reason: reason ?? null }, $unset: { fetch_slots: 1 } } });
  }

  /**
   * The tracks with a fetch in the slot (an equality read on the indexed array of their slots), and the
   * fetches stored one document each by earlier versions (an equality read on their slot:
   * nothing writes them any more, so once the last of them is due the read finds nothing).
   */
  async fetchesInSlot(slot: number): Promise<Array<{ track: Track; fetch: ScheduledFetch }>> {
    const [docs, legacy] = await Promise.all([this.models.Track.find({ fetch_slots: slot }).lean<TrackDoc[]>(), this.models.Fetch.find({ slot }).lean<LegacyFetchDoc[]>()]);
    const due = docs.map(toTrack).flatMap((track) => (track.schedule ?? []).filter((f) => f.slot === slot).map((f) => ({ track, fetch: scheduledFetch(track.postAccountId, f) })));
    if (!legacy.length) return due;
    const tracks = new Map((await this.tracks(legacy.map((f) => f.post_account_id))).map((t) => [t.postAccountId, t]));
    for (const f of legacy) {
      const track = tracks.get(f.post_account_id);
      if (track) due.push({ track, fetch: scheduledFetch(f.post_account_id, { n: f.n, dueAt: f.due_at }) });
    }
    return due;
  }

  /**
   * One equality read per target, 16 at a time: FerretDB 1.x pushes no `$in` down, so one `$in` read scanned
   * every track ever stored (1.3 s per slot with 30,000 tracks, growing with history).
   */
  private async tracks(postAccountIds: number[]): Promise<Track[]> {
    const docs = await inWaves([...new Set(postAccountIds)], 16, (id) => this.models.Track.findById(id).lean<TrackDoc>());
    return docs.filter((d): d is TrackDoc => d !== null).map(toTrack);
  }

  async dispatchCursor(): Promise<number | undefined> {
    const doc = await this.models.Cursor.findOne({ _id: 'dispatch' }).lean<{ slot: number }>();
    return doc?.slot;
  }

  async setDispatchCursor(slot: number): Promise<void> {
    await this.models.Cursor.updateOne({ _id: 'dispatch' }, { $set: { slot } }, { upsert: true });
  }

  /** Inserts the snapshot unless it is stored already (false then). */
  async insertSnapshot(s: Snapshot): Promise<boolean> {
    const doc = {
      _id: s.id,
      workspace_id: s.workspaceId,
      post_id: s.postId,
      post_account_id: s.postAccountId,
      social_account_id: s.socialAccountId,
      platform: s.platform,
      n: s.n,
      ...s.metrics,
      fetched_at: s.fetchedAt,
    };
    return (await insertEach(this.models.Snapshot, [doc]))[0]!;
  }

  async snapshot(id: string): Promise<Snapshot | null> {
    const d = await this.models.Snapshot.findOne({ _id: id }).lean<{
      _id: string;
      workspace_id: number;
      post_id: number;
      post_account_id: number;
      social_account_id: number;
      platform: string;
      n: number;
      impressions?: number | null;
      likes?: number | null;
      replies?: number | null;
      reposts?: number | null;
      clicks?: number | null;
      fetched_at: Date;
    }>();
    if (!d) return null;
    return {
      id: d._id,
      workspaceId: d.workspace_id,
      postId: d.post_id,
      postAccountId: d.post_account_id,
      socialAccountId: d.social_account_id,
      platform: d.platform as Platform,
      n: d.n,
      metrics: storedCounts(d),
      fetchedAt: d.fetched_at,
    };
  }

  async monthBuckets(workspaceId: number, months: string[]): Promise<Array<MonthBucket & { appliedSeq: number }>> {
    // One equality query per month (a handful per request), each returning one document per account.
    const perMonth = await Promise.all(
      months.map((month) =>
        this.models.MonthBucket.find({ workspace_id: workspaceId, month }).lean<
          Array<{
            workspace_id: number;
            social_account_id: number;
            platform: string;
            month: string;
            days: Record<string, StoredDay>;
            reporters?: MonthBucket['reporters'];
            applied_seq: number;
          }>
        >(),
      ),
    );
    return perMonth.flat().map((d) => ({
      workspaceId: d.workspace_id,
      socialAccountId: d.social_account_id,
      platform: d.platform as Platform,
      month: d.month,
      days: Object.fromEntries(Object.entries(d.days ?? {}).map(([day, v]) => [day, storedDay(v)])),
      reporters: d.reporters ?? {},
      appliedSeq: d.applied_seq,
    }));
  }

  async saveMonthBucket(b: MonthBucket, appliedSeq: number): Promise<void> {
    const _id = `${b.workspaceId}:${b.socialAccountId}:${b.month}`;
    await this.models.MonthBucket.replaceOne(
      { _id },
      { _id, workspace_id: b.workspaceId, social_account_id: b.socialAccountId, platform: b.platform, month: b.month, days: b.days, reporters: b.reporters, applied_seq: appliedSeq },
      { upsert: true },
    );
  }

  async bestTimeBuckets(workspaceId: number, months?: string[]): Promise<Array<BestTimeBucket & { appliedSeq: number }>> {
    type Doc = { workspace_id: number; social_account_id: number; platform: string; month: string; cells: BestTimeBucket['cells']; applied_seq: number };
    // Equality queries only: one per month asked, or the workspace's buckets (one per account and posting month).
    const docs = months
      ? (await Promise.all(months.map((month) => this.models.BestTimeBucket.find({ workspace_id: workspaceId, month }).lean<Doc[]>()))).flat()
      : await this.models.BestTimeBucket.find({ workspace_id: workspaceId }).lean<Doc[]>();
    return docs.map((d) => ({
      workspaceId: d.workspace_id,
      socialAccountId: d.social_account_id,
      platform: d.platform as Platform,
      month: d.month,
      cells: d.cells ?? {},
      appliedSeq: d.applied_seq,
    }));
  }

  async saveBestTimeBucket(b: BestTimeBucket, appliedSeq: number): Promise<void> {
    const _id = `${b.workspaceId}:${b.socialAccountId}:${b.month}`;
    await this.models.BestTimeBucket.replaceOne(
      { _id },
      { _id, workspace_id: b.workspaceId, social_account_id: b.socialAccountId, platform: b.platform, month: b.month, cells: b.cells, applied_seq: appliedSeq },
      { upsert: true },
    );
  }
}
