/** A stored (or, for presigned uploads, reserved) file. */
export interface MediaRecord {
  key: string;
  workspaceId: number;
  /** The platform it was uploaded for; undefined for objects stored by other services. */
  platform: string | undefined;
  contentType: string;
  sizeBytes: number;
  width: number;
  height: number;
  /** `pending` until a presigned upload arrives. */
  status: 'pending' | 'stored';
  purpose: string | undefined;
  /** Presigned uploads: when the URL stops working. */
  expiresAt: Date | undefined;
  createdAt: Date;
}
