import { env, loadConfig, z, operationsEnv } from '@spa/config';

export const configSchema = z
  .object({
    LOG_LEVEL: env.logLevel,
    MONGO_URL: env.mongoUrl,
    MONGO_DB: z.string().min(1).default('spa_media'),
    GRPC_HOST: env.host,
    GRPC_PORT: env.port(50055),
    ...operationsEnv(9469),
    ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
    /** The publisher holds the LinkedIn connector and the accounts' credentials (LinkedIn asset uploads). */
    PUBLISHER_ADDR: env.address('127.0.0.1:50053'),
    /** Deadline of one LinkedIn upload through the publisher (a video goes to LinkedIn in 4 MiB parts). */
    LINKEDIN_UPLOAD_DEADLINE_MS: env.millis(30 * 60_000),
    /** The media HTTP server: reads objects by key and receives presigned PUTs (the gateway relays /media/... to it). */
    MEDIA_HTTP_HOST: env.host,
    MEDIA_HTTP_PORT: env.port(8095),
    /** Public address of stored objects on local disk (the gateway's /media relay); `url` = this + '/' + r2_key. */
    MEDIA_PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:8080/media'),
    /** Signs presigned local-disk upload URLs (HMAC-SHA256). Required: a known default would let anyone forge uploads. */
    MEDIA_SIGNING_KEY: env.secret,
    /** How long a presigned upload URL stays valid. */
    MEDIA_PRESIGN_TTL_S: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(3600),
    /** How often presigned reservations never used (expired a day ago) are swept. */
    MEDIA_SWEEP_INTERVAL_MS: env.millis(10 * 60_000),
    /** Where uploads are staged while they are checked (local disk, any storage). */
    MEDIA_STAGING_DIR: z.string().min(1).default('.data/media-staging'),
    /** Largest decoded image a header may declare (sharp limitInputPixels): stops decompression bombs. */
    MEDIA_MAX_IMAGE_PIXELS: z.coerce.number().int().positive().default(100_000_000),
    /** Largest image an upload may carry when the platform's own limit is lower: it is re-encoded under that limit when published. */
    MEDIA_MAX_IMAGE_BYTES: z.coerce.number().int().positive().default(50_000_000),
    /** Bound of one ffprobe run on an upload or a converted file. */
    MEDIA_PROBE_TIMEOUT_MS: env.millis(30_000),
    /** Bound of one conversion (sharp or ffmpeg) to a platform's preset. */
    MEDIA_CONVERT_TIMEOUT_MS: env.millis(15 * 60_000),
    /** Conversions run at once per replica (each CPU-bound); the others wait their turn. */
    MEDIA_CONVERT_CONCURRENCY: z.coerce.number().int().positive().default(2),
    /** A variant being converted whose maker has not renewed its claim for this long is taken over (its maker died). */
    MEDIA_VARIANT_LEASE_MS: env.millis(30_000),
    MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
    MEDIA_LOCAL_DIR: z.string().min(1).default('.data/media'),
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_BUCKET: z.string().min(3).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Path-style addressing (most self-hosted S3-compatible servers need it). */
    S3_FORCE_PATH_STYLE: env.bool(true),
    /** Public base URL of the bucket when it is publicly readable; otherwise `url` is a signed GET (7 days). */
    S3_PUBLIC_BASE_URL: z.url().optional(),
  })
  .superRefine((c, ctx) => {
    if (c.MEDIA_STORAGE !== 's3') return;
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!c[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required when MEDIA_STORAGE=s3' });
    }
  });

export type MediaConfig = z.infer<typeof configSchema>;
export const loadMediaConfig = (environment: NodeJS.ProcessEnv = process.env): MediaConfig => loadConfig(configSchema, environment);
