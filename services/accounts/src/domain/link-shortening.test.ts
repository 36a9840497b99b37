import { describe, expect, it } from 'vitest';
import { createSecretBox } from '@spa/secret-box';
import { linkShorteningProblems, sealPatch } from './link-shortening.js';

const at = new Date('2026-11-25T00:00:00Z');
const KEY = 'dub_abcdefgh12345678';

describe('link shortening preference checks', () => {
  it('accepts a Dub-shaped key and refuses others without repeating them', () => {
    expect(linkShorteningProblems(null, { dubApiKey: KEY }, false)).toEqual([]);
    for (const bad of ['sk_live_abcdefgh', 'dub_short', `dub_${'x'.repeat(201)}`, 'dub_has space inside']) {
      const [problem, ...rest] = linkShorteningProblems(null, { dubApiKey: bad }, false);
      expect(rest).toEqual([]);
      expect(problem).toMatch(/^dub_api_key: must be a Dub API key/);
      expect(problem).not.toContain(bad);
    }
  });

  it('needs a key to turn shortening on: the workspace own, one stored before, or the deployment fallback', () => {
    expect(linkShorteningProblems(null, { linkShorteningEnabled: true }, false)).toEqual([expect.stringMatching(/^link_shortening_enabled: needs a Dub API key/)]);
    expect(linkShorteningProblems(null, { linkShorteningEnabled: true }, true)).toEqual([]);
    expect(linkShorteningProblems(null, { linkShorteningEnabled: true, dubApiKey: KEY }, false)).toEqual([]);
    expect(linkShorteningProblems({ dubApiKeySealed: 'v1.a.b.c', updatedAt: at }, { linkShorteningEnabled: true }, false)).toEqual([]);
  });

  it('refuses removing the key while shortening is on without a fallback, and allows it when turned off too', () => {
    const on = { linkShorteningEnabled: true, dubApiKeySealed: 'v1.a.b.c', updatedAt: at };
    expect(linkShorteningProblems(on, { dubApiKey: '' }, false)).toEqual([expect.stringMatching(/^dub_api_key: cannot be removed while link_shortening_enabled is true/)]);
    expect(linkShorteningProblems(on, { dubApiKey: '' }, true)).toEqual([]);
    expect(linkShorteningProblems(on, { dubApiKey: '', linkShorteningEnabled: false }, false)).toEqual([]);
  });

  it('seals the key (it opens again with the same secret box) and keeps "" as a removal', () => {
    const box = createSecretBox('k'.repeat(32));
    const sealed = sealPatch(box, { dubApiKey: KEY, tone: 'casual' });
    expect(sealed).not.toHaveProperty('dubApiKey');
    expect(sealed.dubApiKeySealed).not.toContain(KEY);
    expect(box.decrypt(sealed.dubApiKeySealed!)).toBe(KEY);
    expect(sealPatch(box, { dubApiKey: '' })).toEqual({ dubApiKeySealed: '' });
    expect(sealPatch(box, { tone: 'casual' })).toEqual({ tone: 'casual' });
  });
});
