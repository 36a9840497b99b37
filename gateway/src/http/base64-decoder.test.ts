import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Base64Decoder } from './base64-decoder.js';

function decodeInPieces(text: string, sizes: number[]): Buffer {
  const d = new Base64Decoder('media');
  const out: Buffer[] = [];
  let i = 0;
  for (let k = 0; i < text.length; k++) {
    const n = sizes[k % sizes.length]!;
    out.push(d.push(text.slice(i, i + n)));
    i += n;
  }
  out.push(d.end());
  return Buffer.concat(out);
}

describe('Base64Decoder', () => {
  it('decodes any split of the text to the original bytes (padded and unpadded)', () => {
    for (const len of [0, 1, 2, 3, 4, 5, 1000, 65_537]) {
      const bytes = randomBytes(len);
      const text = bytes.toString('base64');
      for (const sizes of [[1], [3], [7, 2], [256], [1_000_000]]) {
        expect(decodeInPieces(text, sizes).equals(bytes)).toBe(true);
        expect(decodeInPieces(text.replace(/=+$/, ''), sizes).equals(bytes)).toBe(true);
      }
    }
  });

  it('refuses characters outside the alphabet, naming the position', () => {
    const d = new Base64Decoder('media');
    d.push('AAAA');
    expect(() => d.push('AA-A')).toThrow(/invalid base64 character "-" at position 6/);
    expect(() => new Base64Decoder('media').push('AAAA\nAAAA')).toThrow(/"\\n" at position 4/);
  });

  it('refuses a data: URL with a message that says so', () => {
    const d = new Base64Decoder('media');
    expect(() => {
      d.push('da');
      d.push('ta:image/png;base64,AAAA');
    }).toThrow(/without a data: URL prefix/);
  });

  it('refuses padding before the end, across pieces too, and a length of 4n+1', () => {
    expect(() => new Base64Decoder('media').push('AA==AAAA')).toThrow(/padding/);
    const d = new Base64Decoder('media');
    d.push('AA=');
    expect(() => d.push('=A')).toThrow(/padding/);
    const e = new Base64Decoder('media');
    e.push('AAAAA');
    expect(() => e.end()).toThrow(/partial group/);
  });
});
