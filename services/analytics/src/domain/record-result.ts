import { attributeGrowth } from './attribute.js';
import { localDayHour } from './dates.js';
import { addPostGrowth } from './bucket-growth.js';
import { engagementRate, growthOf, latestKnown, rateTerms } from './engagement.js';
import { knownCounts, type Metrics, type PostGrowth, type Snapshot, type Track } from './model.js';
import type { AnalyticsDeps } from './ports.js';
import { withLinkClicks } from './short-links.js';

export interface FetchResult {
  postAccountId: number;
  n: number;
  outcome: 'ok' | 'disconnected' | 'gone' | 'failed';
  /** The counts as the platform reports them (null: not reported). */
  metrics: Metrics;
  fetchedAt: Date;
  error?: string | undefined;
}

/**
 * Stores one fetch result. Results of one workspace arrive one at a time, in stream order (`seq`,
 * the result's JetStream sequence), so every read-modify-write here is alone on its documents; each
 * bucket remembers the last sequence applied, so a result handled again after a crash adds nothing.
 *
 * ok: the snapshot is stored (once, by id); the growth of each reported count since it was last known (or
 * since posting) is attributed to the days it happened on, and a count the platform does not report adds
 * nothing (it is null, never 0); the target's best-time cell takes its new rate; the
 * latest snapshot is announced for post_metric. A snapshot older than the one applied is stored but
 * adds nothing (its growth is in the later one). Any other outcome: recordEnded.
 */
export async function recordResult(deps: AnalyticsDeps, r: FetchResult, seq: number): Promise<'recorded' | 'stale' | 'stopped' | 'skipped'> {
  if (r.outcome !== 'ok') return recordEnded(deps, r);
  const track = await deps.store.getTrack(r.postAccountId);
  if (!track) return 'skipped';
  if (track.last && track.last.n >= r.n) {
    await deps.store.insertSnapshot(snapshotOf(track, r, r.metrics));
    return 'stale';
  }
  const id = `${r.postAccountId}:${r.n}`;
  const withClicks = await withLinkClicks(deps.links, track, r.metrics, (err) => deps.onLinkError?.(err));
  // Handled again after a crash: the counts stored the first time are the ones applied (Dub's clicks move).
  const metrics = (await deps.store.insertSnapshot(snapshotOf(track, r, withClicks))) ? withClicks : ((await deps.store.snapshot(id))?.metrics ?? withClicks);
  const zone = await deps.accounts.timezone(track.workspaceId);
  const known = knownCounts(track);
  const terms = rateTerms(metrics);
  // A track stored before counts could be unreported has its last counts as the rate's terms.
  const legacyTerms = !track.counted && track.last ? rateTerms(track.last.metrics) : null;
  const termsBase = track.rated ?? legacyTerms ?? { impressions: 0, engagements: 0 };
  const growth: PostGrowth = {
    ...growthOf(metrics, known),
    ratedImpressions: terms ? terms.impressions - termsBase.impressions : null,
    ratedEngagements: terms ? terms.engagements - termsBase.engagements : null,
  };
  await addGrowth(deps, track, growth, r.fetchedAt, zone, seq);
  const best = await updateBestTime(deps, track, metrics, zone, seq);
  const next: Track = {
    ...track,
    last: { n: r.n, metrics, fetchedAt: r.fetchedAt },
    counted: latestKnown(metrics, known),
    rated: terms ?? track.rated,
    bestTimeRate: best.rate,
    bestTimeCell: best.cell,
  };
  // A fetch that ended the target meanwhile (stored apart, in parallel: recordEnded) stands.
  await deps.store.saveTrack(next, track.status);
  await deps.messaging.announceSnapshot(next, { metrics, fetchedAt: r.fetchedAt });
  return 'recorded';
}

/**
 * Stores a result without counts: gone / disconnected end the target's fetches (one write of its own
 * track, so results of this kind are stored in parallel, in any order); failed changes nothing (the
 * next scheduled fetch still runs).
 */
export async function recordEnded(deps: Pick<AnalyticsDeps, 'store'>, r: FetchResult): Promise<'stopped' | 'skipped'> {
  if (r.outcome !== 'gone' && r.outcome !== 'disconnected') return 'skipped';
  await deps.store.endTrack(r.postAccountId, r.outcome, r.error);
  return 'stopped';
}

function snapshotOf(track: Track, r: FetchResult, metrics: Metrics): Snapshot {
  return {
    id: `${r.postAccountId}:${r.n}`,
    workspaceId: track.workspaceId,
    postId: track.postId,
    postAccountId: track.postAccountId,
    socialAccountId: track.socialAccountId,
    platform: track.platform,
    n: r.n,
    metrics,
    fetchedAt: r.fetchedAt,
  };
}

async function addGrowth(deps: AnalyticsDeps, track: Track, growth: PostGrowth, fetchedAt: Date, zone: string, seq: number): Promise<void> {
  const from = track.last?.fetchedAt ?? track.postedAt;
  const perDay = attributeGrowth(growth, from < fetchedAt ? from : fetchedAt, fetchedAt, zone);
  const months = [...new Set([...perDay.keys()].map((d) => d.slice(0, 7)))];
  const existing = await deps.store.monthBuckets(track.workspaceId, months);
  for (const month of months) {
    const found = existing.find((b) => b.month === month && b.socialAccountId === track.socialAccountId);
    if (found && found.appliedSeq >= seq) continue;
    const { days, reporters } = addPostGrowth({ month, days: found?.days ?? {}, reporters: found?.reporters ?? {} }, track.postAccountId, perDay);
    await deps.store.saveMonthBucket({ workspaceId: track.workspaceId, socialAccountId: track.socialAccountId, platform: track.platform, month, days, reporters }, seq);
  }
}

/**
 * Each target counts once in the cell of its posting day and hour (the workspace's zone, fixed when first counted),
 * with its latest rate.
 */
async function updateBestTime(deps: AnalyticsDeps, track: Track, metrics: Metrics, zone: string, seq: number): Promise<{ rate?: number | undefined; cell?: string | undefined }> {
  const rate = engagementRate(metrics);
  if (rate === null) return { rate: track.bestTimeRate, cell: track.bestTimeCell };
  const key = track.bestTimeCell ?? bestTimeCell(track.postedAt, zone);
  const month = key.slice(0, 7);
  const bucket = (await deps.store.bestTimeBuckets(track.workspaceId, [month])).find((b) => b.socialAccountId === track.socialAccountId);
  if (bucket && bucket.appliedSeq >= seq) return { rate, cell: key };
  const cells = { ...(bucket?.cells ?? {}) };
  const cell = cells[key] ?? { sum: 0, samples: 0 };
  cells[key] = track.bestTimeRate === undefined ? { sum: cell.sum + rate, samples: cell.samples + 1 } : { sum: cell.sum - track.bestTimeRate + rate, samples: cell.samples };
  await deps.store.saveBestTimeBucket({ workspaceId: track.workspaceId, socialAccountId: track.socialAccountId, platform: track.platform, month, cells }, seq);
  return { rate, cell: key };
}

/** `<YYYY-MM-DD>:<hour>` of an instant in a zone. */
export function bestTimeCell(at: Date, zone: string): string {
  const { day, hour } = localDayHour(at, zone);
  return `${day}:${hour}`;
}
