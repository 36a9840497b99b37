import type { AccountRef, LinkedInAsset, LinkedInAssetKind } from './model.js';

export interface AccountsPort {
  /** The workspace's social accounts; only `ids` when given (an id of another workspace is absent). */
  list(workspaceId: number, ids?: number[]): Promise<AccountRef[]>;
}

export interface PublisherPort {
  /**
   * Uploads a file to LinkedIn for the account (the publisher holds the connector and credentials),
   * streaming `bytes` (exactly `sizeBytes` of them) as the publisher takes them.
   */
  uploadLinkedInAsset(input: { workspaceId: number; socialAccountId: number; kind: LinkedInAssetKind; contentType: string; sizeBytes: number; bytes: AsyncIterable<Uint8Array> }): Promise<{
    assetUrn: string;
    ownerUrn: string;
  }>;
}

export interface LinkedInAssetStore {
  insert(asset: LinkedInAsset): Promise<void>;
  /** The workspace's asset with that URN, if any. */
  get(workspaceId: number, assetUrn: string): Promise<LinkedInAsset | undefined>;
  /** The asset with that URN in any workspace (for internal callers that check the owner themselves). */
  find(assetUrn: string): Promise<LinkedInAsset | undefined>;
}

export interface LinkedInAssetsDeps {
  accounts: AccountsPort;
  publisher: PublisherPort;
  store: LinkedInAssetStore;
  clock: { now(): Date };
  /** Where uploads are staged while they are checked (the media uploads' staging directory). */
  stagingDir: string;
}
