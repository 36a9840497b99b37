/**
 * A post's counts as they travel in metric messages (events.v1 MetricFetchResult and MetricSnapshotRecorded,
 * posts.v1 PostMetric): each count an int64, and `unreported` naming the counts the platform does not report.
 * An unreported count is 0 on the wire, so a reader built before `unreported` sees what it always saw; every
 * reader here turns it back into null. A name this build does not know is ignored.
 */
export const METRIC_COUNTS = ['impressions', 'likes', 'replies', 'reposts', 'clicks'] as const;
export type MetricCount = (typeof METRIC_COUNTS)[number];

/** One post's counts: null where the platform does not report that count. */
export type MetricCounts = Record<MetricCount, number | null>;

export type WireCounts = Record<MetricCount, number> & { unreported: string[] };

export function countsToWire(counts: MetricCounts): WireCounts {
  return {
    impressions: counts.impressions ?? 0,
    likes: counts.likes ?? 0,
    replies: counts.replies ?? 0,
    reposts: counts.reposts ?? 0,
    clicks: counts.clicks ?? 0,
    unreported: METRIC_COUNTS.filter((name) => counts[name] === null),
  };
}

export function countsFromWire(wire: Record<MetricCount, number> & { unreported?: readonly string[] | undefined }): MetricCounts {
  const unreported = new Set(wire.unreported ?? []);
  const count = (name: MetricCount) => (unreported.has(name) ? null : wire[name]);
  return { impressions: count('impressions'), likes: count('likes'), replies: count('replies'), reposts: count('reposts'), clicks: count('clicks') };
}
