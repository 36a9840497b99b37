import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findUp } from './paths.js';

describe('findUp', () => {
  it('finds the nearest ancestor holding the path, from any depth', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    expect(findUp(import.meta.url, 'package.json')).toBe(path.resolve(here, '../package.json'));
    expect(findUp(import.meta.url, 'proto/accounts')).toBe(path.resolve(here, '../../../proto/accounts'));
    expect(findUp(new URL('./deeper/still/x.js', import.meta.url).href, 'proto/accounts')).toBe(path.resolve(here, '../../../proto/accounts'));
  });

  it('answers undefined when no ancestor holds it', () => {
    expect(findUp(import.meta.url, 'no-such-folder-anywhere/x')).toBeUndefined();
  });
});
