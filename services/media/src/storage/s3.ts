import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import type { ObjectStorage, PresignedPut } from './port.js';

export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Public base URL of the bucket when it is publicly readable. */
  publicBaseUrl: string | undefined;
}

/** SigV4 allows signed URLs of at most 7 days. */
const SIGNED_GET_TTL_S = 7 * 24 * 3600;

const isMissing = (err: unknown): boolean => err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');

/** Objects in one bucket of any S3-compatible store. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Plain signed PUTs with Content-Length: every S3-compatible server accepts them (the default
      // CRC32 trailer needs aws-chunked encoding, which many do not).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, size: number, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: body, ContentLength: size, ContentType: contentType }));
  }

  async get(key: string): Promise<{ body: Readable; size: number } | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return { body: out.Body as Readable, size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return { size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async publicUrl(key: string): Promise<string> {
    if (this.settings.publicBaseUrl) return `${this.settings.publicBaseUrl.replace(/\/$/, '')}/${key}`;
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }), { expiresIn: SIGNED_GET_TTL_S });
  }

  async presignPut(put: PresignedPut): Promise<string> {
    const expiresIn = Math.max(1, Math.floor((put.expiresAt.getTime() - Date.now()) / 1000));
    const command = new PutObjectCommand({ Bucket: this.settings.bucket, Key: put.key, ContentType: put.contentType, ContentLength: put.sizeBytes });
    // Content-Type and Content-Length are signed headers: an upload of another size or type fails the signature.
    return getSignedUrl(this.client, command, { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) });
  }

  close(): void {
    this.client.destroy();
  }
}
