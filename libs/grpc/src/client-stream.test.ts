import { MediaServiceClient, MediaServiceService, type UploadMediaRequest } from '@spa/contracts/media/v1/media';
import { AppError } from '@spa/errors';
import { createLogger, withRequestId } from '@spa/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindService, createStreamingClient, startGrpcServer, type RunningGrpcServer } from './index.js';

const logger = createLogger('grpc-stream-test', 'silent');
let server: RunningGrpcServer;
let received: number[] = [];

beforeAll(async () => {
  // A real server whose client-streaming handler is written for this test (it counts bytes, refuses past a limit).
  const handlers = {
    uploadMedia: async (requests: AsyncIterable<UploadMediaRequest>, ctx: { requestId: string | undefined }) => {
      let bytes = 0;
      for await (const m of requests) {
        bytes += m.chunk.length;
        received.push(m.chunk.length);
        if (bytes > 1_000_000 && ctx.requestId !== 'unbounded') throw new AppError('PAYLOAD_TOO_LARGE', `over the limit at ${bytes}`);
        await new Promise((r) => setTimeout(r, 1));
      }
      return { media: { r2Key: ctx.requestId ?? '', workspaceId: 1, platform: '', contentType: '', sizeBytes: bytes, width: 0, height: 0, url: '', status: 'stored', createdAt: '' } };
    },
  };
  server = await startGrpcServer({ host: '127.0.0.1', port: 0, logger, services: [bindService('media.v1.MediaService', MediaServiceService, handlers as never)] });
});
afterAll(async () => {
  await server?.shutdown();
});

const message = (chunk: Buffer): UploadMediaRequest => ({ workspaceId: 1, requireConnectedAccount: false, imagesOnly: false, chunk, complete: false });

describe('client streaming', () => {
  it('delivers every message in order and answers once the client ends, with the request id', async () => {
    const client = createStreamingClient(MediaServiceClient, `127.0.0.1:${server.port}`, { deadlineMs: 5_000, streamDeadlineMs: 10_000 });
    received = [];
    const res = await withRequestId('req-stream', async () => {
      const call = client.clientStream('uploadMedia');
      for (let i = 1; i <= 20; i++) await call.write(message(Buffer.alloc(i * 1000)));
      return call.end();
    });
    expect(received).toEqual(Array.from({ length: 20 }, (_, i) => (i + 1) * 1000));
    expect(res.media).toMatchObject({ sizeBytes: 210_000, r2Key: 'req-stream' });
    client.close();
  });

  it('surfaces an early refusal as AppError on the next write, without sending the rest', async () => {
    const client = createStreamingClient(MediaServiceClient, `127.0.0.1:${server.port}`, { deadlineMs: 5_000, streamDeadlineMs: 10_000 });
    received = [];
    const call = client.clientStream('uploadMedia');
    let sent = 0;
    const writing = (async () => {
      for (let i = 0; i < 200; i++) {
        await call.write(message(Buffer.alloc(100_000)));
        sent += 1;
      }
    })();
    await expect(writing).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'over the limit at 1100000' });
    await expect(call.response).rejects.toBeInstanceOf(AppError);
    expect(sent).toBeLessThan(100);
    client.close();
  });

  it('keeps memory bounded by a few messages however long the call (a written message is not kept)', async () => {
    const client = createStreamingClient(MediaServiceClient, `127.0.0.1:${server.port}`, { deadlineMs: 5_000, streamDeadlineMs: 60_000 });
    received = [];
    const MIB = 1024 * 1024;
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const res = await withRequestId('unbounded', async () => {
      const call = client.clientStream('uploadMedia');
      for (let i = 0; i < 256; i++) {
        await call.write(message(Buffer.alloc(MIB, i)));
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
      }
      return call.end();
    });
    expect(res.media?.sizeBytes).toBe(256 * MIB);
    // 256 MiB went through; what stays allocated is the HTTP/2 window, a few messages and the garbage the
    // collector has not reached yet (it lags on a loaded machine: 102 MiB was seen once), not the call's
    // history: a call that kept its messages would hold all 256 MiB, so half of it is the line.
    expect(peak).toBeLessThan(128 * MIB);
    client.close();
  });

  it('the unary methods of a streaming client still work', async () => {
    const client = createStreamingClient(MediaServiceClient, `127.0.0.1:${server.port}`, { deadlineMs: 2_000, streamDeadlineMs: 10_000 });
    // No handler for GetMedia: the server answers UNIMPLEMENTED, which arrives as an AppError.
    await expect(client.getMedia({ workspaceId: 1, r2Key: 'x' })).rejects.toBeInstanceOf(AppError);
    client.close();
  });
});
