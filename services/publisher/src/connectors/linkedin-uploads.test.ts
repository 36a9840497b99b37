import { createHash } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
// From source, like the platform object (dist's SandboxState is a different class to the type checker).
import { startSandbox, type Sandbox } from '../../../../tools/sandbox/src/server.js';
import { linkedin, LINKEDIN_VIDEO_PART_BYTES } from '../../../../tools/sandbox/src/platforms/linkedin.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { linkedinUploads } from './linkedin-uploads.js';
import type { TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([linkedin]);
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.state.reset();
});

const member: TargetAccount = { socialAccountId: 2, platform: 'linkedin', username: 'acme', credentials: { access_token: 'sandbox-acme', author_urn: 'urn:li:person:acme' } };
const uploads = () => linkedinUploads(`${sandbox.url}/linkedin`);
const MiB = 1024 * 1024;
/** Deterministic bytes: byte i of the file is a function of i, so any range can be made again. */
// Filled in a plain loop: building megabytes through Array.from blocks the event loop for seconds under load, and with the
// sandbox in this same process that stalls the HTTP connection the uploader reuses (ECONNRESET on the next part).
const bytesAt = (from: number, n: number) => {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = ((from + i) * 31 + ((from + i) >> 12)) % 251;
  return b;
};
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Every call the connector makes to LinkedIn, in order ("PUT part 0", "POST finalizeUpload"…), interleaved with `events`:
 * seen as the HTTP client (undici, under `fetch` too) creates each request, whichever API made it.
 */
function recordCalls(events: string[]): void {
  const onCreate = (message: unknown) => {
    const { request } = message as { request: { method: string; origin: string; path: string } };
    const url = new URL(request.path, request.origin);
    events.push(`${request.method} ${url.searchParams.get('action') ?? url.pathname.split('/').slice(-1)[0]}`);
  };
  diagnostics.subscribe('undici:request:create', onCreate);
  onTestFinished(() => void diagnostics.unsubscribe('undici:request:create', onCreate));
}

/** `size` bytes in chunks of `chunk`, noting each one handed over; `fail` throws after that many bytes. */
async function* source(size: number, chunk: number, events: string[], opts: { fail?: number } = {}): AsyncIterable<Uint8Array> {
  for (let at = 0; at < size; at += chunk) {
    if (opts.fail !== undefined && at >= opts.fail) throw new Error('the sender went away');
    events.push(`chunk ${at}`);
    yield bytesAt(at, Math.min(chunk, size - at));
  }
}

async function video(urn: string) {
  const res = await fetch(`${sandbox.url}/linkedin/rest/videos/${encodeURIComponent(urn)}`, { headers: { authorization: 'Bearer sandbox-acme', 'linkedin-version': '202608' } });
  return (await res.json()) as { status: string; sandbox: { fileSizeBytes: number; parts: Array<{ firstByte: number; lastByte: number; etag: string | null; sha256: string | null }> } };
}

describe('streamed LinkedIn uploads', () => {
  it('PUTs each video part as soon as its bytes have arrived, every byte in order, then finalizes', async () => {
    const size = 3 * LINKEDIN_VIDEO_PART_BYTES + 12_345;
    const events: string[] = [];
    recordCalls(events);
    const { urn } = await uploads().uploadStream(member, 'video', size, source(size, 256 * 1024, events));
    expect(events[0]).toBe('POST initializeUpload');
    expect(events.at(-1)).toBe('POST finalizeUpload');
    const remote = await video(urn);
    // The bytes are a counting pattern, not a video: LinkedIn's processing fails; what counts here is that each byte arrived in order.
    expect(remote.status).toBe('PROCESSING_FAILED');
    expect(remote.sandbox.fileSizeBytes).toBe(size);
    expect(remote.sandbox.parts.map((p) => p.sha256)).toEqual(remote.sandbox.parts.map((p) => sha256(bytesAt(p.firstByte, p.lastByte - p.firstByte + 1))));
    // Part k goes out before the bytes of part k+1 are taken: one part in memory at a time.
    const puts = events.flatMap((e, i) => (e.startsWith('PUT ') ? [i] : []));
    expect(puts).toHaveLength(4);
    for (const [k, at] of puts.entries()) {
      const chunksBefore = events.slice(0, at).filter((e) => e.startsWith('chunk ')).length;
      expect(chunksBefore).toBe(Math.min(Math.ceil(((k + 1) * LINKEDIN_VIDEO_PART_BYTES) / (256 * 1024)), Math.ceil(size / (256 * 1024))));
    }
  });

  it('finalizes nothing when the bytes fail midway, end early or run past the announced size', async () => {
    const size = 2 * LINKEDIN_VIDEO_PART_BYTES + 100;
    const events: string[] = [];
    recordCalls(events);
    await expect(uploads().uploadStream(member, 'video', size, source(size, MiB, events, { fail: LINKEDIN_VIDEO_PART_BYTES + MiB }))).rejects.toThrow('the sender went away');
    await expect(uploads().uploadStream(member, 'video', size, source(size - 1, MiB, events))).rejects.toMatchObject({ code: 'INVALID_PARAMETERS', details: [expect.stringContaining('ended after')] });
    await expect(uploads().uploadStream(member, 'video', size, source(size + 1, MiB, events))).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: [expect.stringContaining('more bytes arrived')],
    });
    await expect(uploads().uploadStream(member, 'image', 5000, source(4000, 1000, events))).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    expect(events.filter((e) => e.startsWith('POST initializeUpload'))).toHaveLength(3); // the image registered nothing: its bytes come first
    expect(events.filter((e) => e.includes('finalizeUpload'))).toEqual([]);
    expect([...sandbox.state.media.keys()]).toEqual([]);
  });

  it('gathers an image, then registers and PUTs it once', async () => {
    const events: string[] = [];
    recordCalls(events);
    const { urn } = await uploads().uploadStream(member, 'image', 300_000, source(300_000, 64 * 1024, events));
    expect(urn).toMatch(/^urn:li:image:/);
    expect(sandbox.state.media.get(urn)?.bytes).toBe(300_000);
    expect(events.filter((e) => !e.startsWith('chunk '))).toEqual(['POST initializeUpload', `PUT ${encodeURIComponent(urn)}`]);
    expect(events.indexOf('POST initializeUpload')).toBeGreaterThan(events.lastIndexOf('chunk 262144'));
  });
});
