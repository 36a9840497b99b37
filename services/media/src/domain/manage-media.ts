import type { Readable } from 'node:stream';
import { AppError, notFound } from '@spa/errors';
import { isMediaKey, isVariantKey } from './keys.js';
import type { MediaRecord } from './model.js';
import type { MediaDeps } from './ports.js';

/**
 * A record whose bytes are in storage. A presigned upload straight to S3 is noticed here: once the
 * object is there with the reserved size, the record becomes `stored`.
 */
export async function settled(deps: MediaDeps, record: MediaRecord | undefined): Promise<MediaRecord | undefined> {
  if (!record || record.status === 'stored') return record;
  if (deps.storage.kind !== 's3') return undefined;
  const found = await deps.storage.head(record.key);
  if (!found || found.size !== record.sizeBytes) return undefined;
  await deps.store.markStored(record.key);
  return { ...record, status: 'stored' };
}

/** A stored file of the workspace (another workspace's is NOT_FOUND). */
export async function getMedia(deps: MediaDeps, workspaceId: number, key: string): Promise<MediaRecord & { url: string }> {
  const record = isMediaKey(key) ? await settled(deps, await deps.store.find(key)) : undefined;
  if (!record || record.workspaceId !== workspaceId) throw notFound('Media file');
  return { ...record, url: await deps.storage.publicUrl(record.key) };
}

/** Reads a stored file's (or a ready variant's) bytes for serving (public read by key), or undefined. */
export async function openMedia(deps: MediaDeps, key: string): Promise<{ contentType: string; body: Readable; size: number } | undefined> {
  let contentType: string | undefined;
  if (isVariantKey(key)) {
    const variant = await deps.store.findVariant(key);
    contentType = variant?.status === 'ready' ? variant.facts?.content_type : undefined;
  } else if (isMediaKey(key)) {
    contentType = (await settled(deps, await deps.store.find(key)))?.contentType;
  }
  if (!contentType) return undefined;
  const object = await deps.storage.get(key);
  return object && { contentType, ...object };
}

/**
 * Deletes a file: NOT_FOUND when no such file (or, with `platform`, not one uploaded for it),
 * 403 MEDIA_NOT_OWNED when it belongs to another workspace (the contract's rule for Tumblr files; WORKSPACE_FORBIDDEN means a key whose creator left).
 */
export async function deleteMedia(deps: MediaDeps, workspaceId: number, key: string, platform: string | undefined): Promise<MediaRecord> {
  const record = isMediaKey(key) ? await deps.store.find(key) : undefined;
  if (!record || (platform && record.platform !== platform)) throw notFound(platform ? `${platform} media file` : 'Media file');
  if (record.workspaceId !== workspaceId) throw new AppError('MEDIA_NOT_OWNED', 'This media file belongs to another workspace');
  for (const variant of await deps.store.variantsOf(key)) {
    await deps.storage.delete(variant.key);
    await deps.store.dropVariant(variant.key);
  }
  await deps.storage.delete(key);
  await deps.store.delete(key);
  return record;
}
