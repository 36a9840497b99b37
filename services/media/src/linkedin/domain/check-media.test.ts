import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkLinkedInMedia } from './check-media.js';
import { LINKEDIN_UPLOAD_RULES, LINKEDIN_VIDEO_UPLOAD_MAX_BYTES } from './limits.js';

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp') => sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })[format]().toBuffer();
const mp4 = (size = 4096) => {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2')]);
  return Buffer.concat([ftyp, Buffer.alloc(size - ftyp.length)]);
};
const refusal = (p: Promise<unknown>) => p.then(() => undefined, (e: { code: string; details?: string[]; message: string }) => ({ code: e.code, detail: e.details?.[0] ?? e.message }));

describe('checkLinkedInMedia', () => {
  it("takes LinkedIn's image types and MP4 video, as the bytes show them", async () => {
    for (const [format, type] of [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['gif', 'image/gif']] as const) {
      await expect(checkLinkedInMedia('image', type, await image(format))).resolves.toBeUndefined();
    }
    await expect(checkLinkedInMedia('video', 'video/mp4', mp4())).resolves.toBeUndefined();
  });

  it('uses the capability table: 5 MB images, MP4 only, videos capped by what one JSON upload carries', () => {
    expect(LINKEDIN_UPLOAD_RULES.image).toEqual({ content_types: ['image/jpeg', 'image/png', 'image/gif'], max_bytes: 5_000_000 });
    expect(LINKEDIN_UPLOAD_RULES.video).toEqual({ content_types: ['video/mp4'], max_bytes: LINKEDIN_VIDEO_UPLOAD_MAX_BYTES });
  });

  it('refuses, naming the field, what LinkedIn does not take or what the bytes are not', async () => {
    expect(await refusal(checkLinkedInMedia('image', 'image/webp', await image('webp')))).toMatchObject({ code: 'INVALID_PARAMETERS', detail: expect.stringMatching(/^content_type: 'image\/webp' is not accepted/) });
    expect(await refusal(checkLinkedInMedia('image', 'image/jpeg', await image('png')))).toEqual({ code: 'INVALID_PARAMETERS', detail: "content_type: 'image/jpeg' was declared but the bytes are image/png" });
    expect(await refusal(checkLinkedInMedia('image', 'image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')))).toMatchObject({ detail: expect.stringMatching(/^media: the bytes are of no recognised media format/) });
    expect(await refusal(checkLinkedInMedia('video', 'video/mp4', await image('png')))).toMatchObject({ detail: 'media: the bytes are image/png; a LinkedIn video must be video/mp4' });
    const quicktime = Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  '), Buffer.from([0, 0, 2, 0]), Buffer.from('qt  '), Buffer.alloc(100)]);
    expect(await refusal(checkLinkedInMedia('video', 'video/mp4', quicktime))).toMatchObject({ detail: 'media: the bytes are video/quicktime; a LinkedIn video must be video/mp4' });
    expect(await refusal(checkLinkedInMedia('image', 'image/png', Buffer.alloc(0)))).toEqual({ code: 'INVALID_PARAMETERS', detail: 'media: no bytes' });
    const big = Buffer.concat([await image('jpeg'), Buffer.alloc(5_000_001)]);
    expect(await refusal(checkLinkedInMedia('image', 'image/jpeg', big))).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});
