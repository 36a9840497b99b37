import { contentTypeCodec, platformCodec, platformStatusCodec, postStatusCodec } from '@spa/contracts/codecs';
import type { Post } from '@spa/contracts/posts/v1/posts';
import { postOptionsOf, type PostOptions } from '@spa/platforms';
import type { ContentPart, MediaItem } from '../connectors/types.js';
import type { PostToPublish } from '../domain/ports.js';

/** Media referenced by `r2_key` (an upload or its variant), read from the media store's public URL (the media service owns the bytes). */
export function mediaItem(mediaBaseUrl: string, r2Key: string, type: MediaItem['type']): MediaItem {
  const url = `${mediaBaseUrl.replace(/\/$/, '')}/${r2Key.split('/').map(encodeURIComponent).join('/')}`;
  return {
    r2Key,
    type,
    url,
    read: async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      if (!response.ok) throw new Error(`media ${r2Key}: ${response.status}`);
      return { bytes: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
    },
  };
}

/** A post as the posts service sends it (its gRPC answer, or a publish job), as the publisher needs it. */
export function postToPublish(workspaceId: number, post: Post, mediaBaseUrl: string): PostToPublish {
  return {
    workspaceId,
    postId: post.id,
    status: postStatusCodec.require(post.state, post.status),
    dryRun: post.dryRun,
    scheduledAt: post.scheduledAt ? new Date(post.scheduledAt) : undefined,
    targets: post.postAccounts.map((a) => ({
      postAccountId: a.id,
      socialAccountId: a.socialAccountId,
      platform: platformCodec.require(a.platformKind, a.platform),
      platformStatus: platformStatusCodec.decode(a.state, a.platformStatus),
    })),
    partsFor: (platform) =>
      post.postContents
        .filter((c) => platformCodec.require(c.platformKind, c.platform) === platform)
        .sort((a, b) => a.position - b.position)
        .map((c): ContentPart => {
          const metadata = (c.metadata ?? (c.metadataJson ? JSON.parse(c.metadataJson) : {})) as {
            media?: Array<{ r2_key: string; type: MediaItem['type'] }>;
            poll?: { options: string[]; duration_minutes?: number };
            asset_urn?: string;
          } & PostOptions;
          return {
            body: c.body,
            contentType: contentTypeCodec.require(c.contentKind, c.contentType),
            position: c.position,
            firstComment: c.firstComment,
            media: (metadata.media ?? []).map((m) => mediaItem(mediaBaseUrl, m.r2_key, m.type)),
            poll: metadata.poll ? { options: metadata.poll.options, durationMinutes: metadata.poll.duration_minutes ?? 1440 } : undefined,
            assetUrn: metadata.asset_urn,
            options: postOptionsOf(metadata),
          };
        }),
  };
}
