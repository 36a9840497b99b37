import { MediaServiceService, type MediaFacts as FactsMessage, type MediaObject, type UploadMediaRequest } from '@spa/contracts/media/v1/media';
import type { MediaFacts } from '@spa/platforms';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { deleteMedia, getMedia } from '../domain/manage-media.js';
import type { MediaRecord } from '../domain/model.js';
import type { MediaDeps } from '../domain/ports.js';
import { prepareMedia } from '../domain/prepare-media.js';
import { createPresignedUpload } from '../domain/presigned-upload.js';
import { storeObject } from '../domain/store-object.js';
import { uploadMedia, type UploadPart } from '../domain/upload-media.js';

function factsMessage(f: MediaFacts): FactsMessage {
  return {
    kind: f.kind,
    contentType: f.content_type,
    bytes: f.bytes,
    width: f.width,
    height: f.height,
    frames: f.frames,
    durationS: f.duration_s,
    fps: f.fps,
    videoCodec: f.video_codec,
    audioCodec: f.audio_codec,
  };
}

function mediaMessage(r: MediaRecord, url: string): MediaObject {
  return {
    r2Key: r.key,
    workspaceId: r.workspaceId,
    platform: r.platform ?? '',
    contentType: r.contentType,
    sizeBytes: r.sizeBytes,
    width: r.width,
    height: r.height,
    url,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    facts: r.facts && factsMessage(r.facts),
  };
}

function positive(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw invalidParameters([`${field} must be a positive integer`]);
  return value;
}

async function* uploadParts(requests: AsyncIterable<UploadMediaRequest>): AsyncIterable<UploadPart> {
  for await (const m of requests) {
    yield {
      workspaceId: m.workspaceId || undefined,
      platform: m.platform,
      contentType: m.contentType,
      requireConnectedAccount: m.requireConnectedAccount,
      imagesOnly: m.imagesOnly,
      chunk: m.chunk,
      complete: m.complete,
    };
  }
}

/** gRPC transport of the media service. */
export function mediaService(deps: MediaDeps): ServiceBinding {
  return bindService('media.v1.MediaService', MediaServiceService, {
    uploadMedia: async (requests) => {
      const stored = await uploadMedia(deps, uploadParts(requests));
      return { media: mediaMessage(stored, stored.url) };
    },
    storeObject: async (req) => {
      const stored = await storeObject(deps, { workspaceId: req.workspaceId, contentType: req.contentType, data: req.data, purpose: req.purpose });
      return { r2Key: stored.key, url: stored.url, sizeBytes: stored.sizeBytes };
    },
    createPresignedUpload: async (req) => {
      const { uploadUrl, record } = await createPresignedUpload(deps, {
        workspaceId: positive(req.workspaceId, 'workspace_id'),
        platform: req.platform,
        contentType: req.contentType,
        sizeBytes: req.sizeBytes,
      });
      return { uploadUrl, r2Key: record.key, expiresAt: record.expiresAt!.toISOString() };
    },
    deleteMedia: async (req) => {
      const record = await deleteMedia(deps, positive(req.workspaceId, 'workspace_id'), req.r2Key, req.platform || undefined);
      return { media: mediaMessage(record, '') };
    },
    getMedia: async (req) => {
      const found = await getMedia(deps, positive(req.workspaceId, 'workspace_id'), req.r2Key);
      return { media: mediaMessage(found, found.url) };
    },
    prepareMedia: async (req) => {
      const prepared = await prepareMedia(deps, { key: req.r2Key, platform: req.platform, fit: req.fit });
      return { r2Key: prepared.key, contentType: prepared.facts.content_type, facts: factsMessage(prepared.facts), converted: prepared.converted, url: prepared.url };
    },
  });
}
