import type { MediaConfig } from '../config.js';
import { LocalDiskStorage } from './local-disk.js';
import type { ObjectStorage } from './port.js';
import { S3Storage } from './s3.js';

/** The storage chosen in config. */
export function createStorage(config: MediaConfig): ObjectStorage {
  if (config.MEDIA_STORAGE === 's3') {
    return new S3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      publicBaseUrl: config.S3_PUBLIC_BASE_URL,
    });
  }
  return new LocalDiskStorage(config.MEDIA_LOCAL_DIR, config.MEDIA_PUBLIC_BASE_URL, config.MEDIA_SIGNING_KEY);
}
