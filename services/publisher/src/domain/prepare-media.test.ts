import { describe, expect, it } from 'vitest';
import type { MediaItem, PublishRequest } from '../connectors/types.js';
import type { MediaPort } from './ports.js';
import { prepareRequest } from './prepare-media.js';

const item = (r2Key: string, type: MediaItem['type'] = 'image'): MediaItem => ({
  r2Key,
  type,
  url: `http://media.test/${r2Key}`,
  read: async () => ({ bytes: Buffer.alloc(1), contentType: 'image/png' }),
});

describe('preparing a request’s media for its platform', () => {
  const asked: string[] = [];
  const media: MediaPort = {
    prepare: async (m, platform, fit) => {
      asked.push(`${m.r2Key} ${platform} ${fit}`);
      return { ...item(`${m.r2Key}.variants/${fit}.jpg`), facts: { kind: 'image', content_type: 'image/jpeg', bytes: 1, width: 1, height: 1 } };
    },
  };
  const request: PublishRequest = {
    target: { socialAccountId: 1, platform: 'instagram', username: 'acme', credentials: { access_token: 't' } },
    parts: [
      { body: 'a', contentType: 'image', position: 0, media: [item('a.png'), item('a.png'), item('doc.pdf', 'document')] },
      { body: 'b', contentType: 'image', position: 1, media: [item('a.png')], options: { media_fit: 'crop' } },
    ],
  };

  it('replaces every image and video by what the platform takes, once per item and fit, in order; documents go as they are', async () => {
    const prepared = await prepareRequest(media, request);
    expect(prepared.parts.map((p) => p.media.map((m) => m.r2Key))).toEqual([['a.png.variants/pad.jpg', 'a.png.variants/pad.jpg', 'doc.pdf'], ['a.png.variants/crop.jpg']]);
    expect(asked).toEqual(['a.png instagram pad', 'a.png instagram crop']);
    expect(prepared.parts[0]!.media[0]!.facts?.content_type).toBe('image/jpeg');
    expect(request.parts[0]!.media[0]!.r2Key).toBe('a.png');
  });

  it('refuses an item given as one kind whose bytes are another', async () => {
    const asVideo: PublishRequest = { ...request, parts: [{ ...request.parts[0]!, media: [item('a.png', 'video')] }] };
    await expect(prepareRequest(media, asVideo)).rejects.toMatchObject({ kind: 'rejected', message: 'instagram: media a.png is given as a video but is an image' });
  });

  it('leaves the request as it is without a media pipeline', async () => {
    expect(await prepareRequest(undefined, request)).toBe(request);
  });
});
