import { contentTypeCodec, platformCodec, platformStatusCodec, postStatusCodec } from '@spa/contracts/codecs';
import { countsToWire } from '@spa/contracts/metric-counts';
import type { Post as PostMessage } from '@spa/contracts/posts/v1/posts';
import type { Post } from '../domain/model.js';

const iso = (d: Date | undefined): string | undefined => d?.toISOString();

/** A post as the posts service's gRPC answers (and its publish jobs) carry it. */
export function postMessage(p: Post): PostMessage {
  return {
    id: p.id,
    state: postStatusCodec.toProto(p.status),
    status: p.status,
    flexible: p.flexible,
    scheduledAt: iso(p.scheduledAt),
    postedAt: iso(p.postedAt),
    failedAt: iso(p.failedAt),
    postError: p.postError,
    disconnected: p.disconnected,
    source: p.source,
    recurrenceJitterEnabled: p.recurrenceJitterEnabled,
    evergreen: p.evergreen,
    evergreenVariations: p.evergreenVariations,
    recycledFromId: p.recycledFromId,
    recurrenceIntervalDays: p.recurrenceIntervalDays,
    reviewedAt: iso(p.reviewedAt),
    reviewAction: p.reviewAction,
    rejectionReason: p.rejectionReason,
    createdAt: p.createdAt.toISOString(),
    body: p.body,
    dryRun: p.dryRun,
    postContents: p.postContents.map((c) => ({
      id: c.id,
      platformKind: platformCodec.toProto(c.platform),
      platform: c.platform,
      body: c.body,
      contentKind: contentTypeCodec.toProto(c.contentType),
      contentType: c.contentType,
      position: c.position,
      firstComment: c.firstComment,
      metadata: c.metadata,
      metadataJson: JSON.stringify(c.metadata),
    })),
    postAccounts: p.postAccounts.map((a) => ({
      id: a.id,
      socialAccountId: a.socialAccountId,
      platformKind: platformCodec.toProto(a.platform),
      platform: a.platform,
      username: a.username,
      state: a.platformStatus ? platformStatusCodec.toProto(a.platformStatus) : 0,
      platformStatus: a.platformStatus,
      platformPostId: a.platformPostId,
      permalink: a.permalink,
      platformError: a.platformError,
      dubShortUrl: a.dubShortUrl,
      dubOriginalUrl: a.dubOriginalUrl,
      postMetric: a.postMetric && { ...countsToWire(a.postMetric), engagementRate: a.postMetric.engagementRate ?? undefined, fetchedAt: a.postMetric.fetchedAt.toISOString() },
    })),
  };
}
