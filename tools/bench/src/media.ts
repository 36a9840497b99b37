/**
 * Media benchmark: throughput and peak memory of the gateway and the media service for base64
 * uploads of 5 MB images and of maximum-size (20 MB) images (20 at a time, the JSON parsed and decoded as it streams), for one
 * presigned 1 GB video PUT relayed by the gateway to the media service (local disk), and for one
 * base64 LinkedIn video upload (POST /linkedin/video_uploads: gateway → media, staged → publisher →
 * the LinkedIn stand-in in 4 MiB parts), with the publisher's peak too. Prints figures; asserts nothing.
 * BENCH_MEDIA_UPLOADS (default 60), BENCH_MEDIA_VIDEO_MB (default 1000) and BENCH_MEDIA_LINKEDIN_MB
 * (default 200) size it.
 */
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { createWorkspace, startStack, type RunningProcess, type Stack } from '@spa/testing';

/** An 8x8 JPEG: a real header for the sniffer and sharp; the rest of each file is filler after it. */
const JPEG_8x8 = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AJAAnHX/2Q==',
  'base64',
);
const IMAGE_BYTES = 5_000_000;
const CONCURRENCY = 20;
/** The largest image of /media/uploads' image platforms (pinterest, from the capability table). */
const MAX_PINTEREST_IMAGE = 20_000_000;

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);

/** Resident memory of a process now (VmRSS), in MiB. */
async function rssMiB(proc: RunningProcess): Promise<number> {
  const status = await readFile(`/proc/${proc.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

/** Samples the RSS of processes every 50 ms while `work` runs; answers the peaks. */
async function peaksDuring<T>(procs: RunningProcess[], work: () => Promise<T>): Promise<{ result: T; peaks: number[] }> {
  const peaks = procs.map(() => 0);
  const timer = setInterval(() => {
    procs.forEach(
      (p, i) =>
        void rssMiB(p).then(
          (mib) => (peaks[i] = Math.max(peaks[i]!, mib)),
          () => undefined,
        ),
    );
  }, 50);
  try {
    return { result: await work(), peaks };
  } finally {
    clearInterval(timer);
  }
}

function send(url: string, method: string, headers: Record<string, string | number>, body: (req: http.ClientRequest) => Promise<void>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    body(req).then(() => req.end(), reject);
  });
}

async function write(req: http.ClientRequest, chunk: Buffer): Promise<void> {
  if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
}

interface Figures {
  name: string;
  mb: number;
  seconds: number;
  gatewayPeak: number;
  mediaPeak: number;
  /** Only for the LinkedIn upload, which goes through the publisher. */
  publisherPeak?: number;
}

async function imageUploads(stack: Stack, apiKey: string, gateway: RunningProcess, media: RunningProcess, count: number, bytes: number): Promise<Figures> {
  const file = Buffer.concat([JPEG_8x8, Buffer.alloc(bytes - JPEG_8x8.length, 7)]);
  const body = Buffer.from(JSON.stringify({ platform: 'pinterest', content_type: 'image/jpeg', media: file.toString('base64') }));
  let next = 0;
  let failures = 0;
  const started = process.hrtime.bigint();
  const { peaks } = await peaksDuring([gateway, media], () =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        while (next < count) {
          next += 1;
          const res = await send(
            `${stack.baseUrl}/api/v1/media/uploads`,
            'POST',
            { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': body.length, 'x-forwarded-for': `10.20.${worker}.${next % 250}` },
            async (req) => {
              for (let i = 0; i < body.length; i += 256 * 1024) await write(req, body.subarray(i, i + 256 * 1024));
            },
          );
          if (res.status !== 201) {
            failures += 1;
            progress(`upload failed: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
      }),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (failures) progress(`${failures} of ${count} uploads failed`);
  return {
    name: `${count} x ${bytes / 1e6} MB image, base64 POST /media/uploads, ${CONCURRENCY} concurrent`,
    mb: ((count - failures) * bytes) / 1e6,
    seconds,
    gatewayPeak: peaks[0]!,
    mediaPeak: peaks[1]!,
  };
}

async function presignedVideo(stack: Stack, apiKey: string, gateway: RunningProcess, media: RunningProcess, megabytes: number): Promise<Figures> {
  const size = megabytes * 1_000_000;
  const presign = await stack.api(`/facebook/uploads/presign?content_type=video/mp4&file_size=${size}`, { token: apiKey });
  if (presign.status !== 200) throw new Error(`presign failed: ${presign.status} ${presign.text}`);
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2')]);
  const block = Buffer.alloc(1024 * 1024, 3);
  const started = process.hrtime.bigint();
  const { result: res, peaks } = await peaksDuring([gateway, media], () =>
    send(presign.json.upload_url, 'PUT', { 'content-type': 'video/mp4', 'content-length': size }, async (req) => {
      await write(req, ftyp);
      let left = size - ftyp.length;
      while (left > 0) {
        const n = Math.min(left, block.length);
        await write(req, block.subarray(0, n));
        left -= n;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (res.status !== 200) throw new Error(`presigned PUT failed: ${res.status} ${res.text}`);
  return { name: `${megabytes} MB video, presigned PUT relayed to local disk`, mb: size / 1e6, seconds, gatewayPeak: peaks[0]!, mediaPeak: peaks[1]! };
}

/** One base64 LinkedIn video upload of `megabytes` MB, the body written as it is encoded (never whole in this process either). */
async function linkedInVideo(stack: Stack, apiKey: string, procs: [RunningProcess, RunningProcess, RunningProcess], megabytes: number): Promise<Figures> {
  const size = megabytes * 1_000_000;
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2')]);
  const head = Buffer.from('{"content_type":"video/mp4","media":"');
  const tail = Buffer.from('"}');
  const slice = 3 * 1024 * 1024;
  const filler = Buffer.alloc(slice, 5);
  const started = process.hrtime.bigint();
  const { result: res, peaks } = await peaksDuring(procs, () =>
    send(
      `${stack.baseUrl}/api/v1/linkedin/video_uploads`,
      'POST',
      { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': head.length + Math.ceil(size / 3) * 4 + tail.length },
      async (req) => {
        await write(req, head);
        for (let at = 0; at < size; at += slice) {
          const n = Math.min(slice, size - at);
          const piece = at === 0 ? Buffer.concat([ftyp, filler.subarray(0, n - ftyp.length)]) : filler.subarray(0, n);
          await write(req, Buffer.from(piece.toString('base64')));
        }
        await write(req, tail);
      },
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (res.status !== 201) throw new Error(`LinkedIn video upload failed: ${res.status} ${res.text}`);
  return {
    name: `${megabytes} MB LinkedIn video, base64 POST /linkedin/video_uploads → media (staged) → publisher → LinkedIn stand-in in 4 MiB parts`,
    mb: size / 1e6,
    seconds,
    gatewayPeak: peaks[0]!,
    mediaPeak: peaks[1]!,
    publisherPeak: peaks[2]!,
  };
}

export async function benchMedia(): Promise<void> {
  const uploads = Number(process.env.BENCH_MEDIA_UPLOADS ?? 60);
  const videoMb = Number(process.env.BENCH_MEDIA_VIDEO_MB ?? 1000);
  const linkedInMb = Number(process.env.BENCH_MEDIA_LINKEDIN_MB ?? 200);
  progress('starting the stack (local-disk media storage, publisher and platform stand-ins)');
  const stack = await startStack({ publishing: true, gatewayEnv: { TRUST_PROXY: '1' } });
  try {
    const ws = await createWorkspace(stack);
    const gateway = stack.processes.find((p) => p.name === 'gateway')!;
    const media = stack.processes.find((p) => p.name === 'media')!;
    const publisher = stack.processes.find((p) => p.name === 'publisher')!;
    await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'linkedin', username: 'bench_linkedin', sandbox: true });
    const idle = { gateway: await rssMiB(gateway), media: await rssMiB(media), publisher: await rssMiB(publisher) };
    // First, so its peaks are its own (RSS stays high after the concurrent image uploads).
    progress(`one base64 LinkedIn video upload of ${linkedInMb} MB`);
    const linkedIn = await linkedInVideo(stack, ws.apiKey, [gateway, media, publisher], linkedInMb);
    progress(`${uploads} base64 uploads of 5 MB images, ${CONCURRENCY} at a time`);
    const images = await imageUploads(stack, ws.apiKey, gateway, media, uploads, IMAGE_BYTES);
    progress(`${CONCURRENCY} base64 uploads of maximum-size (20 MB, pinterest) images at once`);
    const largest = await imageUploads(stack, ws.apiKey, gateway, media, CONCURRENCY, MAX_PINTEREST_IMAGE);
    progress(`one presigned ${videoMb} MB video PUT`);
    const video = await presignedVideo(stack, ws.apiKey, gateway, media, videoMb);
    console.log(`\nMedia (RSS sampled every 50 ms; idle before: gateway ${idle.gateway.toFixed(0)} MiB, media ${idle.media.toFixed(0)} MiB, publisher ${idle.publisher.toFixed(0)} MiB)\n`);
    console.log('| scenario | MB (decoded) | seconds | MB/s | gateway peak RSS MiB | media peak RSS MiB | publisher peak RSS MiB |');
    console.log('|---|---|---|---|---|---|---|');
    for (const f of [linkedIn, images, largest, video]) {
      console.log(
        `| ${f.name} | ${f.mb.toFixed(0)} | ${f.seconds.toFixed(1)} | ${(f.mb / f.seconds).toFixed(1)} | ${f.gatewayPeak.toFixed(0)} | ${f.mediaPeak.toFixed(0)} | ${f.publisherPeak?.toFixed(0) ?? '–'} |`,
      );
    }
  } finally {
    await stack.stop();
  }
}
