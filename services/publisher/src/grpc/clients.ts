import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { platformStatusCodec, publishErrorClassCodec } from '@spa/contracts/codecs';
import { MediaServiceClient, type MediaFacts as FactsMessage } from '@spa/contracts/media/v1/media';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { AppError } from '@spa/errors';
import { createClient, withoutControlCharacters } from '@spa/grpc';
import type { MediaFacts } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import { ConnectorError } from '../connectors/types.js';
import type { AccountsPort, MediaPort, PostsPort } from '../domain/ports.js';
import { mediaItem, postToPublish } from './post-to-publish.js';

export function postsPort(address: string, mediaBaseUrl: string): PostsPort & { close(): void } {
  const client = createClient(PostsServiceClient, address, { deadlineMs: 10_000 });
  return {
    async getPost(workspaceId, postId) {
      const { post } = await client.getPost({ workspaceId, postId });
      return postToPublish(workspaceId, post!, mediaBaseUrl);
    },
    async recordResults(workspaceId, postId, outcomes) {
      await client.recordPublishResults({
        workspaceId,
        postId,
        results: outcomes.map((o) => ({
          ...o,
          // A platform's own words may hold control characters, which every service refuses in requests.
          platformError: o.platformError === undefined ? undefined : withoutControlCharacters(o.platformError),
          state: platformStatusCodec.toProto(o.platformStatus),
          platformStatus: '',
        })),
      });
    },
    close: () => client.close(),
  };
}

export function accountsPort(address: string): AccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address, { deadlineMs: 10_000 });
  return {
    async targets(workspaceId, socialAccountIds) {
      const { accounts } = await client.getPublishingCredentials({ workspaceId, socialAccountIds });
      return accounts.map((a) => ({ socialAccountId: a.socialAccountId, platform: a.platform as Platform, username: a.username, credentials: a.credentials }));
    },
    async markDisconnected(workspaceId, socialAccountId) {
      await client.markDisconnected({ workspaceId, socialAccountId });
    },
    async recordPublishError(workspaceId, socialAccountId, errorClass) {
      await client.recordPublishError({ workspaceId, socialAccountId, errorClass: publishErrorClassCodec.toProto(errorClass), occurredAt: new Date().toISOString() });
    },
    close: () => client.close(),
  };
}

/** A conversion (a long video through ffmpeg) may take minutes; the attempt's lease is renewed meanwhile. */
const PREPARE_DEADLINE_MS = 15 * 60_000;

const factsOf = (f: FactsMessage): MediaFacts => ({
  kind: f.kind as MediaFacts['kind'],
  content_type: f.contentType,
  bytes: f.bytes,
  ...(f.width !== undefined ? { width: f.width } : {}),
  ...(f.height !== undefined ? { height: f.height } : {}),
  ...(f.frames !== undefined ? { frames: f.frames } : {}),
  ...(f.durationS !== undefined ? { duration_s: f.durationS } : {}),
  ...(f.fps !== undefined ? { fps: f.fps } : {}),
  ...(f.videoCodec !== undefined ? { video_codec: f.videoCodec } : {}),
  ...(f.audioCodec !== undefined ? { audio_codec: f.audioCodec } : {}),
});

/** The media service's PrepareMedia: each item as a platform takes it, its variant read from the media store like any upload. */
export function mediaPort(address: string, mediaBaseUrl: string): MediaPort & { close(): void } {
  const client = createClient(MediaServiceClient, address, { deadlineMs: PREPARE_DEADLINE_MS });
  return {
    async prepare(item, platform, fit) {
      const answer = await client.prepareMedia({ r2Key: item.r2Key, platform, fit }).catch((err: unknown) => {
        // A file that cannot be made to fit (or is gone) is refused for good; the media service unreachable is retried.
        if (err instanceof AppError && (err.code === 'INVALID_PARAMETERS' || err.code === 'NOT_FOUND')) {
          throw new ConnectorError('rejected', `${platform}: ${err.details?.length ? err.details.join('; ') : `media ${item.r2Key}: ${err.message}`}`);
        }
        throw new ConnectorError('transient', `${platform}: media ${item.r2Key} could not be prepared now: ${err instanceof Error ? err.message : String(err)}`);
      });
      const facts = factsOf(answer.facts!);
      return answer.converted ? { ...mediaItem(mediaBaseUrl, answer.r2Key, item.type), facts } : { ...item, facts };
    },
    close: () => client.close(),
  };
}
