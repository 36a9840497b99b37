import { describe, expect, it } from 'vitest';
import { signPresignedPut, verifyPresignedPut } from './presign-signature.js';

const KEY = 'test-signing-key-0123456789';
const binding = { key: 'ws/1/2026/05/0b0c6a4e-4a8e-4d39-9b7b-2d0e4f5a6b7c.mp4', sizeBytes: 1234, contentType: 'video/mp4', expiresAt: new Date('2026-05-01T10:00:00Z') };
const query = signPresignedPut(KEY, binding);
const before = new Date('2026-05-01T09:59:00Z');
const request = { contentType: 'video/mp4', contentLength: '1234' };

describe('presigned PUT signature (local disk)', () => {
  it('accepts the bound request before expiry', () => {
    expect(verifyPresignedPut(KEY, binding.key, query, request, before)).toMatchObject({ ok: true, binding: { sizeBytes: 1234 } });
  });

  it('refuses after expiry, another key, a tampered size or type, another Content-Type or Content-Length', () => {
    const refuse = (k: string, q: Record<string, string>, r: { contentType: string | undefined; contentLength: string | undefined } = request, now = before) => verifyPresignedPut(KEY, k, q, r, now);
    expect(refuse(binding.key, query, request, new Date('2026-05-01T10:00:01Z'))).toMatchObject({ ok: false, reason: expect.stringMatching(/expired/) });
    expect(refuse(binding.key.replace('0b0c', '0b0d'), query)).toMatchObject({ ok: false, reason: expect.stringMatching(/signature/) });
    expect(refuse(binding.key, { ...query, 'X-Spa-Size': '99999' }, { ...request, contentLength: '99999' })).toMatchObject({ ok: false });
    expect(refuse(binding.key, { ...query, 'X-Spa-Content-Type': 'video/webm' }, { ...request, contentType: 'video/webm' })).toMatchObject({ ok: false });
    expect(refuse(binding.key, query, { ...request, contentType: 'video/quicktime' })).toMatchObject({ ok: false, reason: expect.stringMatching(/Content-Type/) });
    expect(refuse(binding.key, query, { ...request, contentLength: '1233' })).toMatchObject({ ok: false, reason: expect.stringMatching(/Content-Length/) });
    expect(refuse(binding.key, query, { contentType: 'video/mp4', contentLength: undefined })).toMatchObject({ ok: false });
    expect(refuse(binding.key, {})).toMatchObject({ ok: false, status: 403 });
    expect(verifyPresignedPut('another-signing-key-0123456789', binding.key, query, request, before)).toMatchObject({ ok: false });
  });
});
