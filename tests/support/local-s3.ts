import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';

/**
 * The local S3-compatible server that `scripts/infra up` starts (versitygw, posix backend) and the
 * credentials it is started with. Tests create their own bucket on it and remove it afterwards.
 */
export const LOCAL_S3 = {
  endpoint: process.env.TEST_S3_ENDPOINT ?? 'http://127.0.0.1:7070',
  region: 'us-east-1',
  accessKeyId: process.env.TEST_S3_ACCESS_KEY ?? 'spa-local-access',
  secretAccessKey: process.env.TEST_S3_SECRET_KEY ?? 'spa-local-secret-key-0123456789',
};

const admin = () => new S3Client({ endpoint: LOCAL_S3.endpoint, region: LOCAL_S3.region, forcePathStyle: true, credentials: LOCAL_S3, requestChecksumCalculation: 'WHEN_REQUIRED' });

/** A fresh bucket for one test file. Fails (never skips) when the server is not running. */
export async function createTestBucket(): Promise<{ bucket: string; remove(): Promise<void> }> {
  const client = admin();
  const bucket = `t-media-${randomUUID().slice(0, 8)}`;
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    client.destroy();
    throw new Error(`the local S3-compatible server at ${LOCAL_S3.endpoint} is not usable (run scripts/infra up): ${String(err)}`, { cause: err });
  }
  return {
    bucket,
    remove: async () => {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      for (const o of listed.Contents ?? []) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: o.Key! }));
      await client.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => undefined);
      client.destroy();
    },
  };
}
