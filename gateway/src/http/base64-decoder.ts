import { invalidParameters } from '@spa/errors';

const INVALID = /[^A-Za-z0-9+/=]/;

/**
 * Decodes standard base64 that arrives in pieces (any split), carrying the characters past the last
 * complete 4-character group to the next piece. Refuses, naming the position, any character outside
 * the alphabet (whitespace included), padding before the end, and a `data:` URL prefix.
 */
export class Base64Decoder {
  private carry = '';
  private chars = 0;
  private padded = false;
  private start = '';

  constructor(private readonly field: string) {}

  /** Decodes a piece; returns the bytes of every complete group so far. */
  push(text: string): Buffer {
    if (this.start.length < 5) this.start += text.slice(0, 5 - this.start.length);
    const bad = INVALID.exec(text);
    if (bad) this.refuse(`invalid base64 character ${JSON.stringify(bad[0])} at position ${this.chars + bad.index}`);
    const pad = text.indexOf('=');
    if (this.padded && text.length > 0 && /[^=]/.test(text)) this.refuse(`base64 padding "=" before position ${this.chars + text.search(/[^=]/)}`);
    if (pad >= 0) {
      if (/[^=]/.test(text.slice(pad))) this.refuse(`base64 padding "=" at position ${this.chars + pad} is not at the end`);
      this.padded = true;
    }
    this.chars += text.length;
    const all = this.carry + text;
    const whole = all.length - (all.length % 4);
    this.carry = all.slice(whole);
    return whole > 0 ? Buffer.from(all.slice(0, whole), 'base64') : Buffer.alloc(0);
  }

  /** Ends the text: unpadded endings of 2 or 3 characters are accepted, a lone 1 is not. */
  end(): Buffer {
    if (this.carry.length === 1) this.refuse('base64 text ends with a partial group (its length is 1 more than a multiple of 4)');
    if (this.carry.replace(/=+$/, '').length === 0 && this.carry.length > 0) this.refuse('base64 text ends with padding only');
    const out = this.carry ? Buffer.from(this.carry, 'base64') : Buffer.alloc(0);
    this.carry = '';
    return out;
  }

  get length(): number {
    return this.chars;
  }

  private refuse(problem: string): never {
    if (this.start.toLowerCase().startsWith('data:')) {
      throw invalidParameters([`${this.field}: must be bare base64, without a data: URL prefix (drop everything up to and including the comma)`]);
    }
    throw invalidParameters([`${this.field}: ${problem}`]);
  }
}
