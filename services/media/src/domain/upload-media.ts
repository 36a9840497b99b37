import { createReadStream } from 'node:fs';
import { invalidParameters } from '@spa/errors';
import { CONVERTIBLE_IMAGE_TYPES, CONVERTIBLE_VIDEO_TYPES, maxUploadBytes, ruleAccepts, UPLOAD_PLATFORMS, uploadRules, type UploadPlatform } from '@spa/platforms';
import { canonicalType, sniffType, type Sniffed } from './inspect.js';
import { newMediaKey } from './keys.js';
import type { MediaRecord } from './model.js';
import type { MediaDeps } from './ports.js';
import { StagedUpload, type UploadCap } from './staging.js';

/** One piece of an upload as it arrives; fields may come in any piece, each at most once. */
export interface UploadPart {
  workspaceId?: number;
  platform?: string;
  contentType?: string;
  requireConnectedAccount?: boolean;
  imagesOnly?: boolean;
  chunk?: Uint8Array;
  /** The sender's mark on its last piece; without it the upload is incomplete. */
  complete?: boolean;
}

/** The largest upload of any platform: the cap while the platform is not known yet. */
const ANY_PLATFORM_MAX = Math.max(...UPLOAD_PLATFORMS.map(maxUploadBytes));

function isUploadPlatform(p: string): p is UploadPlatform {
  return (UPLOAD_PLATFORMS as readonly string[]).includes(p);
}

/** What is known so far of an upload in progress. */
class UploadState {
  workspaceId: number | undefined;
  platform: UploadPlatform | undefined;
  declared: string | undefined;
  requireConnectedAccount = false;
  imagesOnly = false;
  accountChecked = false;
  sniffed: Sniffed | undefined;
  complete = false;

  /** `maxImageBytes`: the cap of an image the platform does not take as it is (converted at publish). */
  constructor(private readonly maxImageBytes: number) {}

  merge(part: UploadPart): void {
    if (part.workspaceId) {
      if (this.workspaceId !== undefined && this.workspaceId !== part.workspaceId) throw invalidParameters(['workspace_id: sent twice']);
      this.workspaceId = part.workspaceId;
    }
    if (part.platform !== undefined) {
      if (this.platform !== undefined) throw invalidParameters(['platform: given twice']);
      if (!isUploadPlatform(part.platform)) throw invalidParameters([`platform: must be one of ${UPLOAD_PLATFORMS.join(', ')}`]);
      this.platform = part.platform;
    }
    if (part.contentType !== undefined) {
      if (this.declared !== undefined) throw invalidParameters(['content_type: given twice']);
      if (!/^[a-z]+\/[\w.+-]+$/i.test(part.contentType.trim())) throw invalidParameters(['content_type: must be a MIME type such as image/png']);
      this.declared = canonicalType(part.contentType);
    }
    if (part.requireConnectedAccount) this.requireConnectedAccount = true;
    if (part.imagesOnly) this.imagesOnly = true;
    if (this.complete) throw invalidParameters(['upload: a piece arrived after the one marked complete']);
    if (part.complete) this.complete = true;
  }

  /** The cap that applies with what is known: the exact rule once platform and kind are known. */
  limit(): UploadCap {
    if (!this.platform) return { bytes: ANY_PLATFORM_MAX, what: 'any platform' };
    const rules = uploadRules(this.platform);
    const rule = this.sniffed && rules[this.sniffed.kind];
    // An image is re-encoded under the platform's byte limit when it is published, so a larger one is taken, up to the absolute cap.
    if (rule && this.sniffed!.kind === 'image' && this.maxImageBytes > rule.max_bytes) return { bytes: this.maxImageBytes, what: `${this.platform} images (converted to fit at publish)` };
    if (rule) return { bytes: rule.max_bytes, what: `${this.platform} ${this.sniffed!.kind}s` };
    return { bytes: maxUploadBytes(this.platform), what: this.platform };
  }
}

async function checkAccount(deps: MediaDeps, state: UploadState): Promise<void> {
  if (state.accountChecked || !state.requireConnectedAccount || !state.platform || state.workspaceId === undefined) return;
  state.accountChecked = true;
  if (!(await deps.accounts.hasConnectedAccount(state.workspaceId, state.platform))) {
    throw invalidParameters([`platform: uploading ${state.platform} media needs a connected ${state.platform} account in this workspace; connect one first`]);
  }
}

/** Checks the sniffed type against the declaration and the platform's rules (once both are known). */
function checkType(state: UploadState): void {
  if (!state.platform || !state.sniffed) return;
  const { sniffed, platform } = state;
  if (state.declared !== undefined && state.declared !== sniffed.contentType) {
    throw invalidParameters([`content_type: declared ${state.declared} but the bytes are ${sniffed.contentType}`]);
  }
  const rule = uploadRules(platform)[sniffed.kind];
  if (!rule || (state.imagesOnly && sniffed.kind !== 'image')) {
    throw invalidParameters([`media: ${platform} uploads take ${state.imagesOnly || !uploadRules(platform).video ? 'images only' : 'images and videos'}; this is a ${sniffed.kind}`]);
  }
  const convertible: readonly string[] = sniffed.kind === 'image' ? CONVERTIBLE_IMAGE_TYPES : CONVERTIBLE_VIDEO_TYPES;
  if (!ruleAccepts(rule, sniffed.contentType) && !convertible.includes(sniffed.contentType)) {
    throw invalidParameters([
      `content_type: ${platform} takes ${rule.content_types.join(', ')} ${sniffed.kind}s, and ${convertible.join(', ')} are converted when published; not ${sniffed.contentType}`,
    ]);
  }
}

/**
 * Stores one upload: the bytes are staged on disk as they arrive (memory stays bounded), their real
 * type is sniffed from the first bytes, every cap is enforced as soon as it is known (the size while
 * the bytes arrive), the file is probed (an image from its header: a decompression bomb is refused; a
 * video with ffprobe: one it cannot read is refused) and its facts stored with the record, and only a
 * file that passes every check reaches storage. Nothing is stored when any check fails. A type the
 * platform does not take as it is, but the pipeline converts (a PNG for Instagram), is stored as it is
 * and converted when published (`prepareMedia`).
 */
export async function uploadMedia(deps: MediaDeps, parts: AsyncIterable<UploadPart>): Promise<MediaRecord & { url: string }> {
  const state = new UploadState(deps.maxImageBytes);
  const staging = new StagedUpload(deps.stagingDir, async (head) => {
    state.sniffed = await sniffType(head);
    checkType(state);
  });
  try {
    for await (const part of parts) {
      state.merge(part);
      if (state.workspaceId === undefined) throw invalidParameters(['workspace_id: the first message must carry it']);
      await checkAccount(deps, state);
      checkType(state);
      if (part.chunk?.length) await staging.append(part.chunk, state.limit());
    }
    if (!state.complete) throw invalidParameters(['upload: the stream ended before its last piece (the sender went away)']);
    const missing = [...(state.platform ? [] : ['platform: required']), ...(state.declared ? [] : ['content_type: required']), ...(staging.size > 0 ? [] : ['media: required (base64 of the file)'])];
    if (missing.length) throw invalidParameters(missing);
    await staging.finish(state.limit());
    await checkAccount(deps, state);
    const sniffed = state.sniffed!;
    const facts = await deps.tools.probe(staging.path, sniffed);
    const now = deps.clock.now();
    const record: MediaRecord = {
      key: newMediaKey(state.workspaceId!, now, deps.newId(), sniffed.ext),
      workspaceId: state.workspaceId!,
      platform: state.platform,
      contentType: sniffed.contentType,
      sizeBytes: staging.size,
      // Videos keep 0 here: the contract's width and height are an image's (a video's are in its facts).
      width: facts.kind === 'image' ? (facts.width ?? 0) : 0,
      height: facts.kind === 'image' ? (facts.height ?? 0) : 0,
      status: 'stored',
      purpose: undefined,
      expiresAt: undefined,
      createdAt: now,
      facts,
    };
    await deps.storage.put(record.key, createReadStream(staging.path), record.sizeBytes, record.contentType);
    try {
      await deps.store.insert(record);
    } catch (err) {
      await deps.storage.delete(record.key);
      throw err;
    }
    return { ...record, url: await deps.storage.publicUrl(record.key) };
  } finally {
    await staging.remove();
  }
}
