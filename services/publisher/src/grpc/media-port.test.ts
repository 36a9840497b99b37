import { MediaServiceService, type PrepareMediaRequest } from '@spa/contracts/media/v1/media';
import { invalidParameters, notFound } from '@spa/errors';
import { bindService, startGrpcServer, type RunningGrpcServer } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorError, type MediaItem } from '../connectors/types.js';
import { mediaPort } from './clients.js';
import { mediaItem } from './post-to-publish.js';

// A real gRPC server on a free port, with a PrepareMedia written for this test: what the adapter makes of each answer.
let server: RunningGrpcServer;
const seen: PrepareMediaRequest[] = [];
const facts = { kind: 'image', contentType: 'image/jpeg', bytes: 1234, width: 1080, height: 1350, frames: 1 };
beforeAll(async () => {
  const handlers = {
    prepareMedia: async (req: PrepareMediaRequest) => {
      seen.push(req);
      if (req.r2Key.endsWith('long.mp4')) throw invalidParameters(['media ws/1/long.mp4 lasts 901 s; the maximum is 900 s (max_duration_s); a video is never cut on instagram']);
      if (req.r2Key.endsWith('gone.png')) throw notFound('Media file');
      if (req.r2Key.endsWith('fits.jpg')) return { r2Key: req.r2Key, contentType: 'image/jpeg', facts, converted: false, url: 'http://x/fits.jpg' };
      return { r2Key: `${req.r2Key}.variants/0123456789abcdef.jpg`, contentType: 'image/jpeg', facts, converted: true, url: 'http://x/v.jpg' };
    },
  };
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: createLogger('media-port-test', 'silent'),
    services: [bindService('media.v1.MediaService', MediaServiceService, handlers as never)],
  });
});
afterAll(async () => {
  await server?.shutdown();
});

const BASE = 'http://127.0.0.1:8080/media';
const item = (r2Key: string, type: MediaItem['type'] = 'image') => mediaItem(BASE, r2Key, type);

describe('the media port (PrepareMedia over gRPC)', () => {
  it('answers the variant as a media item of its own (key, url) with its facts, and asks with the platform and fit', async () => {
    const port = mediaPort(`127.0.0.1:${server.port}`, BASE);
    try {
      const prepared = await port.prepare(item('ws/1/2026/01/a.png'), 'instagram', 'crop');
      expect(seen.at(-1)).toEqual({ r2Key: 'ws/1/2026/01/a.png', platform: 'instagram', fit: 'crop' });
      expect(prepared).toMatchObject({ r2Key: 'ws/1/2026/01/a.png.variants/0123456789abcdef.jpg', type: 'image', url: `${BASE}/ws/1/2026/01/a.png.variants/0123456789abcdef.jpg` });
      expect(prepared.facts).toEqual({ kind: 'image', content_type: 'image/jpeg', bytes: 1234, width: 1080, height: 1350, frames: 1 });
      const same = item('ws/1/2026/01/fits.jpg');
      expect(await port.prepare(same, 'instagram', 'pad')).toEqual({ ...same, facts: prepared.facts });
    } finally {
      port.close();
    }
  });

  it('a file that cannot be made to fit, or is gone, is a refusal naming the rule; an unreachable media service is transient', async () => {
    const port = mediaPort(`127.0.0.1:${server.port}`, BASE);
    try {
      const refused = await port.prepare(item('ws/1/long.mp4', 'video'), 'instagram', 'pad').catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ConnectorError);
      expect(refused).toMatchObject({ kind: 'rejected', message: 'instagram: media ws/1/long.mp4 lasts 901 s; the maximum is 900 s (max_duration_s); a video is never cut on instagram' });
      await expect(port.prepare(item('ws/1/gone.png'), 'instagram', 'pad')).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('not found') });
    } finally {
      port.close();
    }
    const down = mediaPort('127.0.0.1:1', BASE);
    try {
      await expect(down.prepare(item('ws/1/a.png'), 'instagram', 'pad')).rejects.toMatchObject({ kind: 'transient' });
    } finally {
      down.close();
    }
  });
});
