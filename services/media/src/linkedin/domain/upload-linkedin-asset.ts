import { createReadStream } from 'node:fs';
import { AppError, invalidParameters } from '@spa/errors';
import { detectType } from '../../domain/inspect.js';
import { StagedUpload } from '../../domain/staging.js';
import { linkedInChecks } from './check-media.js';
import { chooseLinkedInAccount } from './choose-account.js';
import type { AccountRef, LinkedInAsset, LinkedInAssetKind } from './model.js';
import type { LinkedInAssetsDeps } from './ports.js';

/** One piece of a LinkedIn upload as it arrives: workspace and kind first; the other fields in any piece, each at most once. */
export interface LinkedInUploadPart {
  workspaceId?: number | undefined;
  kind?: LinkedInAssetKind | undefined;
  socialAccountId?: number | undefined;
  contentType?: string | undefined;
  chunk?: Uint8Array | undefined;
  /** The sender's mark on its last piece; without it the upload is incomplete. */
  complete?: boolean | undefined;
}

/** Bytes per piece of the staged file sent on to the publisher. */
const SEND_BYTES = 256 * 1024;

/** What is known so far of a LinkedIn upload in progress. */
class UploadState {
  workspaceId: number | undefined;
  kind: LinkedInAssetKind | undefined;
  socialAccountId: number | undefined;
  declared: string | undefined;
  sniffed: string | undefined;
  complete = false;

  merge(part: LinkedInUploadPart): void {
    if (this.complete) throw invalidParameters(['upload: a piece arrived after the one marked complete']);
    if (part.workspaceId) {
      if (this.workspaceId !== undefined) throw invalidParameters(['workspace_id: sent twice']);
      this.workspaceId = part.workspaceId;
    }
    if (part.kind) {
      if (this.kind !== undefined) throw invalidParameters(['kind: sent twice']);
      this.kind = part.kind;
    }
    if (this.workspaceId === undefined || this.kind === undefined) throw invalidParameters(['workspace_id, kind: the first message must carry them']);
    if (part.socialAccountId !== undefined) {
      if (this.socialAccountId !== undefined) throw invalidParameters(['social_account_id: given twice']);
      this.socialAccountId = part.socialAccountId;
    }
    if (part.contentType !== undefined) {
      if (this.declared !== undefined) throw invalidParameters(['content_type: given twice']);
      linkedInChecks.declared(this.kind, part.contentType);
      this.declared = part.contentType;
      if (this.sniffed) linkedInChecks.match(this.declared, this.sniffed);
    }
    if (part.complete) this.complete = true;
  }
}

/**
 * Receives an upload, checks it, chooses the account, uploads it to LinkedIn through the publisher and
 * records which account owns the URN. The bytes are staged to a file as they arrive (the media
 * uploads' staging and sniffing), so memory stays bounded whatever the size: the type is sniffed
 * from the first bytes, the size cap enforced while they arrive, and only a complete upload that
 * passed every check is streamed from the file to the publisher. Bad input reaches neither LinkedIn
 * nor the store.
 */
export async function uploadLinkedInAsset(deps: LinkedInAssetsDeps, parts: AsyncIterable<LinkedInUploadPart>): Promise<LinkedInAsset> {
  const state = new UploadState();
  const staging = new StagedUpload(deps.stagingDir, async (head) => {
    state.sniffed = (await detectType(head))?.contentType;
    linkedInChecks.sniffed(state.kind!, state.sniffed);
    if (state.declared) linkedInChecks.match(state.declared, state.sniffed!);
  });
  try {
    let account: AccountRef | undefined;
    for await (const part of parts) {
      state.merge(part);
      if (!part.chunk?.length) continue;
      // An account named before the file is checked before its bytes are taken in.
      if (!account && state.socialAccountId !== undefined) account = await chooseLinkedInAccount(deps.accounts, state.workspaceId!, state.socialAccountId);
      await staging.append(part.chunk, linkedInChecks.cap(state.kind!));
    }
    if (!state.complete) throw invalidParameters(['upload: the stream ended before its last piece (the sender went away)']);
    const missing = [...(state.declared ? [] : ['content_type: required']), ...(staging.size > 0 ? [] : ['media: required (base64 of the file)'])];
    if (missing.length) throw invalidParameters(missing);
    await staging.finish(linkedInChecks.cap(state.kind!));
    const workspaceId = state.workspaceId!;
    const kind = state.kind!;
    const contentType = state.declared!;
    account = await chooseLinkedInAccount(deps.accounts, workspaceId, state.socialAccountId);
    const uploaded = await deps.publisher.uploadLinkedInAsset({
      workspaceId,
      socialAccountId: account.id,
      kind,
      contentType,
      sizeBytes: staging.size,
      bytes: createReadStream(staging.path, { highWaterMark: SEND_BYTES }),
    });
    const asset: LinkedInAsset = {
      assetUrn: uploaded.assetUrn,
      workspaceId,
      socialAccountId: account.id,
      kind,
      contentType,
      sizeBytes: staging.size,
      ownerUrn: uploaded.ownerUrn,
      createdAt: deps.clock.now(),
    };
    await deps.store.insert(asset);
    return asset;
  } finally {
    await staging.remove();
  }
}

/** A recorded asset of the workspace. */
export async function getLinkedInAsset(deps: Pick<LinkedInAssetsDeps, 'store'>, workspaceId: number, assetUrn: string): Promise<LinkedInAsset> {
  const asset = await deps.store.get(workspaceId, assetUrn);
  if (!asset) throw new AppError('NOT_FOUND', `LinkedIn asset ${assetUrn} not found`);
  return asset;
}
