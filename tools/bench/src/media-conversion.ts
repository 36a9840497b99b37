/**
 * Media conversion benchmark: the media service's PrepareMedia on real files, each uploaded first (UploadMedia,
 * so its facts are probed at upload as in production), against a media service process of its own on local disk.
 * - per image: BENCH_CONVERT_IMAGES (default 30) distinct PNG photos for Instagram (JPEG only, aspect 4:5 to
 *   1.91:1): each converted to JPEG and padded into the range; p50 and p99, then one reuse of a variant.
 * - per minute of video: a BENCH_CONVERT_VIDEO_S (default 15) second 1280x720 HEVC MOV converted to MP4/H.264
 *   for a platform that takes MP4 H.264 only, and a 120 fps MP4 brought to Instagram's 60 fps.
 * Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MediaServiceClient } from '@spa/contracts/media/v1/media';
import { createStreamingClient } from '@spa/grpc';
import { startProcess, TEST_INFRA, TEST_SECRETS_KEY } from '@spa/testing';
import { makeImage, makeVideo } from '@spa/testing/media';
import { percentile } from './stats.js';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);
type Client = ReturnType<typeof createStreamingClient<MediaServiceClient>>;

async function upload(client: Client, bytes: Buffer, contentType: string, platform: string): Promise<string> {
  const call = client.clientStream('uploadMedia');
  await call.write({ workspaceId: 1, platform, contentType, requireConnectedAccount: false, imagesOnly: false, chunk: Buffer.alloc(0), complete: false });
  for (let i = 0; i < bytes.length; i += 1 << 20) {
    await call.write({ workspaceId: 0, requireConnectedAccount: false, imagesOnly: false, chunk: bytes.subarray(i, i + (1 << 20)), complete: false });
  }
  await call.write({ workspaceId: 0, requireConnectedAccount: false, imagesOnly: false, chunk: Buffer.alloc(0), complete: true });
  return (await call.end()).media!.r2Key;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

export async function benchMediaConversion(): Promise<void> {
  const images = Number(process.env.BENCH_CONVERT_IMAGES ?? 30);
  const videoSeconds = Number(process.env.BENCH_CONVERT_VIDEO_S ?? 15);
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-convert-'));
  const media = await startProcess('media', 'services/media/dist/main.js', {
    MONGO_URL: TEST_INFRA.mongoUrl,
    MONGO_DB: `bench_convert_${randomBytes(4).toString('hex')}`,
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    MEDIA_HTTP_PORT: '0',
    MEDIA_SIGNING_KEY: TEST_SECRETS_KEY,
    MEDIA_LOCAL_DIR: path.join(dir, 'objects'),
    MEDIA_STAGING_DIR: path.join(dir, 'staging'),
    LOG_LEVEL: 'warn',
  });
  const client = createStreamingClient(MediaServiceClient, media.address, { deadlineMs: 15 * 60_000, streamDeadlineMs: 15 * 60_000 });
  try {
    progress(`media conversion: making ${images} PNG photos`);
    const keys: string[] = [];
    for (let i = 0; i < images; i++) {
      // Distinct sizes (each a new file and a new variant), taller than 4:5 so each is also padded.
      keys.push(await upload(client, await makeImage({ format: 'png', width: 1000 + 8 * i, height: 1400 + 4 * i }), 'image/png', 'instagram'));
    }
    const perImage: number[] = [];
    let bytesIn = 0;
    let bytesOut = 0;
    for (const key of keys) {
      const { ms, result } = await timed(() => client.prepareMedia({ r2Key: key, platform: 'instagram', fit: 'pad' }));
      perImage.push(ms);
      bytesOut += result.facts?.bytes ?? 0;
      bytesIn += (await client.getMedia({ workspaceId: 1, r2Key: key })).media?.sizeBytes ?? 0;
    }
    const reuse = await timed(() => client.prepareMedia({ r2Key: keys[0]!, platform: 'instagram', fit: 'pad' }));
    const sorted = Float64Array.from(perImage).sort();

    progress(`media conversion: making a ${videoSeconds} s 1280x720 HEVC MOV and a 120 fps MP4`);
    const mov = await upload(client, await makeVideo({ container: 'mov', codec: 'hevc', width: 1280, height: 720, seconds: videoSeconds, fps: 30 }), 'video/quicktime', 'twitter');
    const fast = await upload(client, await makeVideo({ width: 1280, height: 720, seconds: videoSeconds, fps: 120 }), 'video/mp4', 'instagram');
    const h264Only = await timed(() => client.prepareMedia({ r2Key: mov, platform: 'twitter', fit: 'pad' }));
    const fps60 = await timed(() => client.prepareMedia({ r2Key: fast, platform: 'instagram', fit: 'pad' }));
    const perMinute = (ms: number) => ((ms / 1000) * 60) / videoSeconds;

    console.log(`\nMedia conversion (PrepareMedia on a media service of its own, local disk; files uploaded and probed first)\n`);
    console.log('| conversion | files | p50 | p99 | per minute of video |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| PNG → JPEG for Instagram, padded to 4:5 (~1000x1400 px, ${(bytesIn / images / 1e3).toFixed(0)} KB → ${(bytesOut / images / 1e3).toFixed(0)} KB on average) | ${images} | ${percentile(sorted, 0.5).toFixed(0)} ms | ${percentile(sorted, 0.99).toFixed(0)} ms | – |`,
    );
    console.log(`| the same, variant reused | 1 | ${reuse.ms.toFixed(0)} ms | – | – |`);
    console.log(
      `| MOV/HEVC → MP4/H.264 (${h264Only.result.converted ? 'converted' : 'as is'}), 1280x720 30 fps, ${videoSeconds} s | 1 | ${h264Only.ms.toFixed(0)} ms | – | ${perMinute(h264Only.ms).toFixed(1)} s |`,
    );
    console.log(`| MP4 120 fps → 60 fps for Instagram, 1280x720, ${videoSeconds} s | 1 | ${fps60.ms.toFixed(0)} ms | – | ${perMinute(fps60.ms).toFixed(1)} s |`);
  } finally {
    client.close();
    await media.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
