import { Readable } from 'node:stream';
import { invalidParameters } from '@spa/errors';
import { fileTypeFromBuffer } from 'file-type';
import { canonicalType } from './inspect.js';
import { newMediaKey } from './keys.js';
import type { MediaRecord } from './model.js';
import type { MediaDeps } from './ports.js';

/** Extensions of the types other services store that carry no magic number. */
const TEXT_EXT: Record<string, string> = { 'text/plain': 'txt', 'application/json': 'json', 'text/csv': 'csv' };

/** Bytes a gRPC message may carry (the server's receive limit is 64 MiB). */
export const MAX_OBJECT_BYTES = 60 * 1024 * 1024;

/**
 * Stores bytes another service produced (for example a carousel PDF) under the workspace's prefix.
 * The declared type must agree with the bytes when they have a magic number.
 */
export async function storeObject(deps: MediaDeps, input: { workspaceId: number; contentType: string; data: Uint8Array; purpose: string }): Promise<MediaRecord & { url: string }> {
  const problems: string[] = [];
  if (!Number.isSafeInteger(input.workspaceId) || input.workspaceId <= 0) problems.push('workspace_id: must be a positive integer');
  if (!/^[a-z]+\/[\w.+-]+$/i.test(input.contentType)) problems.push('content_type: must be a MIME type such as application/pdf');
  if (input.data.length === 0) problems.push('data: must not be empty');
  if (input.data.length > MAX_OBJECT_BYTES) problems.push(`data: at most ${MAX_OBJECT_BYTES} bytes`);
  if (input.purpose.length > 100) problems.push('purpose: at most 100 characters');
  if (problems.length) throw invalidParameters(problems);
  const declared = canonicalType(input.contentType);
  const found = await fileTypeFromBuffer(input.data);
  if (found && canonicalType(found.mime) !== declared) throw invalidParameters([`content_type: declared ${declared} but the bytes are ${found.mime}`]);
  const ext = found?.ext ?? TEXT_EXT[declared] ?? 'bin';
  const now = deps.clock.now();
  const record: MediaRecord = {
    key: newMediaKey(input.workspaceId, now, deps.newId(), ext),
    workspaceId: input.workspaceId,
    platform: undefined,
    contentType: declared,
    sizeBytes: input.data.length,
    width: 0,
    height: 0,
    status: 'stored',
    purpose: input.purpose || undefined,
    expiresAt: undefined,
    createdAt: now,
  };
  await deps.storage.put(record.key, Readable.from([Buffer.from(input.data)]), record.sizeBytes, declared);
  await deps.store.insert(record);
  return { ...record, url: await deps.storage.publicUrl(record.key) };
}
