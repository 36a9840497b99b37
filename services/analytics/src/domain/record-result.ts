import { attributeGrowth } from './attribute.js';
import { weekdayHour } from './dates.js';
import { addMetrics, engagementRate, subtractMetrics } from './engagement.js';
import { ZERO, type Metrics, type Track } from './model.js';
import type { AnalyticsDeps } from './ports.js';

export interface FetchResult {
  postAccountId: number;
  n: number;
  outcome: 'ok' | 'disconnected' | 'gone' | 'failed';
  metrics: Metrics;
  fetchedAt: Date;
  error?: string | undefined;
}

/**
 * Stores one fetch result. Results of one workspace arrive one at a time, in stream order (`seq`,
 * the result's JetStream sequence), so every read-modify-write here is alone on its documents; each
 * bucket remembers the last sequence applied, so a result handled again after a crash adds nothing.
 *
 * ok: the snapshot is stored (once, by id); the growth since the previous snapshot (or since posting)
 * is attributed to the days it happened on; the target's best-time cell takes its new rate; the
 * latest snapshot is announced for post_metric. A snapshot older than the one applied is stored but
 * adds nothing (its growth is in the later one). disconnected / gone: the target's fetches stop.
 */
export async function recordResult(deps: AnalyticsDeps, r: FetchResult, seq: number): Promise<'recorded' | 'stale' | 'stopped' | 'skipped'> {
  const track = await deps.store.getTrack(r.postAccountId);
  if (!track) return 'skipped';
  if (r.outcome === 'disconnected' || r.outcome === 'gone') {
    await deps.store.saveTrack({ ...track, status: r.outcome, statusReason: r.error });
    return 'stopped';
  }
  if (r.outcome === 'failed') return 'skipped';
  await deps.store.insertSnapshot({
    id: `${r.postAccountId}:${r.n}`,
    workspaceId: track.workspaceId,
    postId: track.postId,
    postAccountId: track.postAccountId,
    socialAccountId: track.socialAccountId,
    platform: track.platform,
    n: r.n,
    metrics: r.metrics,
    fetchedAt: r.fetchedAt,
  });
  if (track.last && track.last.n >= r.n) return 'stale';
  const zone = await deps.accounts.timezone(track.workspaceId);
  await addGrowth(deps, track, r, zone, seq);
  const bestTimeRate = await updateBestTime(deps, track, r.metrics, zone, seq);
  const next: Track = { ...track, last: { n: r.n, metrics: r.metrics, fetchedAt: r.fetchedAt }, bestTimeRate };
  await deps.store.saveTrack(next);
  await deps.messaging.announceSnapshot(next, { metrics: r.metrics, fetchedAt: r.fetchedAt });
  return 'recorded';
}

async function addGrowth(deps: AnalyticsDeps, track: Track, r: FetchResult, zone: string, seq: number): Promise<void> {
  const growth = subtractMetrics(r.metrics, track.last?.metrics ?? ZERO);
  const from = track.last?.fetchedAt ?? track.postedAt;
  const perDay = attributeGrowth(growth, from < r.fetchedAt ? from : r.fetchedAt, r.fetchedAt, zone);
  const months = [...new Set([...perDay.keys()].map((d) => d.slice(0, 7)))];
  const existing = await deps.store.monthBuckets(track.workspaceId, months);
  for (const month of months) {
    const found = existing.find((b) => b.month === month && b.socialAccountId === track.socialAccountId);
    if (found && found.appliedSeq >= seq) continue;
    const days = { ...(found?.days ?? {}) };
    for (const [day, m] of perDay) if (day.startsWith(month)) days[day] = addMetrics(days[day] ?? ZERO, m);
    await deps.store.saveMonthBucket({ workspaceId: track.workspaceId, socialAccountId: track.socialAccountId, platform: track.platform, month, days }, seq);
  }
}

/** Each target counts once in the cell of its posting time (the workspace's zone), with its latest rate. */
async function updateBestTime(deps: AnalyticsDeps, track: Track, metrics: Metrics, zone: string, seq: number): Promise<number | undefined> {
  const rate = engagementRate(metrics);
  if (rate === null) return track.bestTimeRate;
  const bucket = (await deps.store.bestTimeBuckets(track.workspaceId)).find((b) => b.socialAccountId === track.socialAccountId);
  if (bucket && bucket.appliedSeq >= seq) return rate;
  const { dayOfWeek, hour } = weekdayHour(track.postedAt, zone);
  const key = `${dayOfWeek}-${hour}`;
  const cells = { ...(bucket?.cells ?? {}) };
  const cell = cells[key] ?? { sum: 0, samples: 0 };
  cells[key] = track.bestTimeRate === undefined ? { sum: cell.sum + rate, samples: cell.samples + 1 } : { sum: cell.sum - track.bestTimeRate + rate, samples: cell.samples };
  await deps.store.saveBestTimeBucket({ workspaceId: track.workspaceId, socialAccountId: track.socialAccountId, platform: track.platform, cells }, seq);
  return rate;
}
