import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader, verifySignature } from './index.js';

const SECRET = `whsec_${randomBytes(32).toString('base64url')}`;
const MAX_BYTES = 1024 * 1024;

/**
 * A pool of random code points (ASCII with quotes, backslashes and controls, Latin-1, CJK, astral
 * emoji), already JSON-escaped and UTF-8 encoded, with the offset where each code point starts:
 * payloads are cut from it at code point boundaries without re-encoding (fast enough for 1,000 of them).
 */
function escapedPool(codePoints: number): { bytes: Buffer; starts: number[] } {
  const ranges: Array<[number, number]> = [
    [0x00, 0x7f],
    [0xa0, 0x24f],
    [0x4e00, 0x9fff],
    [0x1f300, 0x1faff],
  ];
  const parts: string[] = [];
  for (let i = 0; i < codePoints; i++) {
    const [lo, hi] = ranges[Math.floor(Math.random() * ranges.length)] as [number, number];
    parts.push(JSON.stringify(String.fromCodePoint(lo + Math.floor(Math.random() * (hi - lo + 1)))).slice(1, -1));
  }
  const encoded = parts.map((p) => Buffer.from(p, 'utf8'));
  const starts: number[] = [];
  let offset = 0;
  for (const e of encoded) {
    starts.push(offset);
    offset += e.length;
  }
  starts.push(offset);
  return { bytes: Buffer.concat(encoded), starts };
}

/** JSON payloads of random unicode, from a few bytes up to 1 MB (sizes spread on a log scale, five of 1 MB). */
function randomPayloads(count: number): Buffer[] {
  const pool = escapedPool(500_000);
  return Array.from({ length: count }, (_, i) => {
    const head = Buffer.from(`{"id":"${randomUUID()}","object":"event","text":"`);
    const room = MAX_BYTES - head.length - 2;
    const size = i < 5 ? room : Math.floor(Math.exp(Math.random() * Math.log(room)));
    const first = i < 5 ? 0 : randomInt(pool.starts.length - 1);
    let last = first;
    while (last + 1 < pool.starts.length && (pool.starts[last + 1] as number) - (pool.starts[first] as number) <= size) last++;
    return Buffer.concat([head, pool.bytes.subarray(pool.starts[first], pool.starts[last]), Buffer.from('"}')]);
  });
}

function flipBit(bytes: Buffer, bit: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[bit >> 3] = (copy[bit >> 3] as number) ^ (1 << (bit & 7));
  return copy;
}

describe('signatureHeader', () => {
  it('has the exact documented format: t=<10 digits>,v1=<64 lowercase hex>, no spaces', () => {
    const header = signatureHeader([SECRET], Math.floor(Date.now() / 1000), '{"a":1}');
    expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
  });

  it('signs "<t>.<raw body>" with HMAC-SHA256 (known vector)', () => {
    // echo -n '1700000000.{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(computeSignature('secret', 1_700_000_000, '{"a":1}')).toBe('49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686');
    expect(computeSignature('secret', 1_700_000_000, Buffer.from('{"a":1}'))).toBe('49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686');
    expect(signatureHeader(['secret'], 1_700_000_000, '{"a":1}')).toBe(`t=1700000000,v1=${computeSignature('secret', 1_700_000_000, '{"a":1}')}`);
  });

  it('carries one v1 per secret during a rotation, new first', () => {
    const header = signatureHeader(['new', 'old'], 1_700_000_000, 'x');
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifySignature('x', header, 'new', { nowSeconds: 1_700_000_000 }).valid).toBe(true);
    expect(verifySignature('x', header, 'old', { nowSeconds: 1_700_000_000 }).valid).toBe(true);
    expect(verifySignature('x', header, 'other', { nowSeconds: 1_700_000_000 }).valid).toBe(false);
  });
});

describe('verifySignature', () => {
  const t = 1_700_000_000;
  const body = '{"id":"e1"}';
  const header = signatureHeader([SECRET], t, body);

  it('accepts a fresh, matching signature', () => {
    expect(verifySignature(body, header, SECRET, { nowSeconds: t + 10 })).toEqual({ valid: true, timestamp: t });
    expect(verifySignature(Buffer.from(body), header, SECRET, { nowSeconds: t })).toEqual({ valid: true, timestamp: t });
  });

  it('rejects stale or future timestamps beyond 5 minutes', () => {
    expect(verifySignature(body, header, SECRET, { nowSeconds: t + 300 }).valid).toBe(true);
    expect(verifySignature(body, header, SECRET, { nowSeconds: t + 301 })).toEqual({ valid: false, reason: 'timestamp outside the tolerance' });
    expect(verifySignature(body, header, SECRET, { nowSeconds: t - 301 }).valid).toBe(false);
  });

  it('rejects a wrong secret, a changed body, a missing or malformed header', () => {
    expect(verifySignature(body, header, 'whsec_other', { nowSeconds: t }).valid).toBe(false);
    expect(verifySignature(`${body} `, header, SECRET, { nowSeconds: t }).valid).toBe(false);
    expect(verifySignature(body, undefined, SECRET, { nowSeconds: t })).toEqual({ valid: false, reason: 'missing signature header' });
    expect(verifySignature(body, header.replace('t=', 'ts='), SECRET, { nowSeconds: t }).valid).toBe(false);
    expect(verifySignature(body, header.toUpperCase(), SECRET, { nowSeconds: t }).valid).toBe(false);
    expect(verifySignature(body, `t=${t}`, SECRET, { nowSeconds: t }).valid).toBe(false);
  });
});

describe('compatibility with the official stripe package', () => {
  it('stripe.webhooks.constructEvent accepts 1,000 random payloads (unicode, up to 1 MB) and rejects every sampled one-bit change', () => {
    const stripe = new Stripe('sk_test_unused');
    const payloads = randomPayloads(1_000);
    expect(Math.max(...payloads.map((p) => p.length))).toBeGreaterThan(MAX_BYTES - 4096);
    expect(Math.max(...payloads.map((p) => p.length))).toBeLessThanOrEqual(MAX_BYTES);
    let flips = 0;
    for (const body of payloads) {
      const header = signatureHeader([SECRET], Math.floor(Date.now() / 1000), body);
      const event = stripe.webhooks.constructEvent(body, header, SECRET);
      expect(event.id).toBe((JSON.parse(body.toString('utf8')) as { id: string }).id);
      expect(verifySignature(body, header, SECRET).valid).toBe(true);

      // One bit flipped in the body, one in the header: both must be rejected by stripe and by us.
      const badBody = flipBit(body, randomInt(body.length * 8));
      const headerBytes = Buffer.from(header, 'latin1');
      const badHeader = flipBit(headerBytes, randomInt(headerBytes.length * 8)).toString('latin1');
      expect(() => stripe.webhooks.constructEvent(badBody, header, SECRET)).toThrow();
      expect(() => stripe.webhooks.constructEvent(body, badHeader, SECRET)).toThrow();
      expect(verifySignature(badBody, header, SECRET).valid).toBe(false);
      expect(verifySignature(body, badHeader, SECRET).valid).toBe(false);
      flips += 2;
    }
    expect(flips).toBe(2_000);
  }, 60_000);
});
