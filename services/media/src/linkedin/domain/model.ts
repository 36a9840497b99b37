export type LinkedInAssetKind = 'image' | 'video';

/** One media file uploaded to LinkedIn for one social account: the URN is usable only by that account. */
export interface LinkedInAsset {
  assetUrn: string;
  workspaceId: number;
  socialAccountId: number;
  kind: LinkedInAssetKind;
  contentType: string;
  sizeBytes: number;
  /** LinkedIn's owner of the asset: the account's author URN (urn:li:person:… or urn:li:organization:…). */
  ownerUrn: string;
  createdAt: Date;
}

/** A social account as the account choice needs it. */
export interface AccountRef {
  id: number;
  platform: string;
  disconnected: boolean;
}
