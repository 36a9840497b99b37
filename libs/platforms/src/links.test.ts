import { describe, expect, it } from 'vitest';
import { isHttpUrl, MAX_LINK_LENGTH } from './links.js';

describe('isHttpUrl', () => {
  it('accepts absolute http(s) URLs with a host, up to the length limit', () => {
    expect(isHttpUrl('https://example.com/a?b=1')).toBe(true);
    expect(isHttpUrl('http://example.com')).toBe(true);
    expect(isHttpUrl(`https://example.com/${'a'.repeat(MAX_LINK_LENGTH - 20)}`)).toBe(true);
  });

  it('refuses other schemes, relative or malformed URLs, non-strings and overlong links', () => {
    for (const bad of ['ftp://example.com', 'javascript:alert(1)', '/relative', 'example.com', 'https://', '', 42, undefined, null]) expect(isHttpUrl(bad), String(bad)).toBe(false);
    expect(isHttpUrl(`https://example.com/${'a'.repeat(MAX_LINK_LENGTH)}`)).toBe(false);
  });
});
