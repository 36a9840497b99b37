import { MetricSnapshotRecorded } from '@spa/contracts/events/v1/metrics';
import { countsToWire } from '@spa/contracts/metric-counts';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from './metric-snapshots.js';

describe('a metric snapshot event', () => {
  it('gives post_metric null for the counts the platform does not report, and keeps a reported 0', () => {
    const data = MetricSnapshotRecorded.encode({
      workspaceId: 1,
      postId: 2,
      postAccountId: 3,
      ...countsToWire({ impressions: null, likes: 0, replies: 4, reposts: null, clicks: null }),
      fetchedAt: '2026-05-01T10:00:00.000Z',
    }).finish();
    expect(decodeSnapshot(data).metric).toEqual({ impressions: null, likes: 0, replies: 4, reposts: null, clicks: null, engagementRate: null, fetchedAt: new Date('2026-05-01T10:00:00.000Z') });
  });

  it('reads an event sent before counts could be unreported as the counts it carries', () => {
    const data = MetricSnapshotRecorded.encode(
      // No `unreported`: what a sender built before it sends.
      MetricSnapshotRecorded.fromPartial({
        workspaceId: 1,
        postId: 2,
        postAccountId: 3,
        impressions: 50,
        likes: 5,
        replies: 0,
        reposts: 0,
        clicks: 0,
        engagementRate: 0.1,
        fetchedAt: '2026-05-01T10:00:00.000Z',
      }),
    ).finish();
    expect(decodeSnapshot(data).metric).toMatchObject({ impressions: 50, likes: 5, replies: 0, reposts: 0, clicks: 0, engagementRate: 0.1 });
  });
});
