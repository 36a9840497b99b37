import { LinkedInAssetKind, PublisherServiceService, type UploadLinkedInAssetRequest } from '@spa/contracts/publisher/v1/publisher';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { listCommunities, pinterestBoards, tiktokCreatorInfo, type AccountLookupsDeps } from '../domain/account-lookups.js';
import { uploadLinkedInAsset, type UploadLinkedInAssetDeps } from '../domain/upload-linkedin-asset.js';

const KINDS: Partial<Record<LinkedInAssetKind, 'image' | 'video'>> = {
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE]: 'image',
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO]: 'video',
};

/**
 * The bytes of the messages after the first (and any in the first), in order, ending at the message
 * marked complete: a stream that ends without it (a sender that went away) fails instead of ending.
 */
async function* bytesOf(first: UploadLinkedInAssetRequest, rest: AsyncIterator<UploadLinkedInAssetRequest>): AsyncIterable<Uint8Array> {
  let message = first;
  for (;;) {
    if (message.chunk.length) yield message.chunk;
    if (message.complete) return;
    const next = await rest.next();
    if (next.done) throw invalidParameters(['upload: the stream ended before its last piece (the sender went away)']);
    message = next.value;
  }
}

/** publisher.v1.PublisherService: platform actions for one connected account, outside publishing jobs. */
export function publisherService(deps: UploadLinkedInAssetDeps & AccountLookupsDeps): ServiceBinding {
  return bindService('publisher.v1.PublisherService', PublisherServiceService, {
    uploadLinkedInAsset: async (requests) => {
      const messages = requests[Symbol.asyncIterator]();
      const first = await messages.next();
      if (first.done) throw invalidParameters(['upload: no message arrived']);
      const header = first.value;
      const kind = KINDS[header.kind];
      if (!kind) throw invalidParameters(['kind: must be IMAGE or VIDEO']);
      return uploadLinkedInAsset(deps, {
        workspaceId: header.workspaceId,
        socialAccountId: header.socialAccountId,
        kind,
        sizeBytes: header.sizeBytes,
        bytes: bytesOf(header, messages),
      });
    },
    getTikTokCreatorInfo: async (req) => {
      const c = await tiktokCreatorInfo(deps, req.workspaceId, req.socialAccountId);
      return {
        nickname: c.creator_nickname,
        username: c.creator_username,
        avatarUrl: c.creator_avatar_url,
        privacyLevelOptions: c.privacy_level_options,
        commentDisabled: c.comment_disabled,
        duetDisabled: c.duet_disabled,
        stitchDisabled: c.stitch_disabled,
        maxVideoPostDurationSec: c.max_video_post_duration_sec,
      };
    },
    listPinterestBoards: async (req) => ({
      boards: (await pinterestBoards(deps, req.workspaceId, req.socialAccountId)).map((b) => ({ id: b.id, name: b.name, description: b.description ?? undefined, privacy: b.privacy })),
    }),
    listCommunities: async (req) => ({ communities: await listCommunities(deps, req.workspaceId, req.socialAccountId) }),
  });
}
