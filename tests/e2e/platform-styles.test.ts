import { PLATFORMS } from '@spa/vocabulary';
import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

/** Platform styles through the gateway: stored by accounts per workspace and platform, defaults from the capability table. */
let stack: Stack;
let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  [ws, other] = await Promise.all([createWorkspace(stack), createWorkspace(stack)]);
}, 300_000);
afterAll(async () => {
  await stack?.stop();
}, 120_000);

const as =
  (w: TestWorkspace) =>
  (path: string, opts: HttpOptions = {}) =>
    stack.api(path, { token: w.apiKey, localAddress: freshClientAddress(), ...opts });
const call = (path: string, opts: HttpOptions = {}) => as(ws)(path, opts);
const patch = (platform: string, style: unknown, w?: TestWorkspace) => as(w ?? ws)(`/platform_styles/${platform}`, { method: 'PATCH', body: { platform_style: style } });

describe('platform styles', () => {
  it('lists every platform with its defaults, in the platform list order', async () => {
    const res = await call('/platform_styles');
    expect(res.status, res.text).toBe(200);
    expect(res.json.platform_styles.map((s: { platform: string }) => s.platform)).toEqual([...PLATFORMS]);
    expect(res.json.meta).toEqual({ total_count: PLATFORMS.length });
    const byPlatform = Object.fromEntries(res.json.platform_styles.map((s: { platform: string }) => [s.platform, s]));
    expect(byPlatform.twitter).toMatchObject({ customized: false, updated_at: null, call_to_action_text: null });
    expect(byPlatform.twitter.length_target).toBeLessThanOrEqual(280);
    expect(byPlatform.bluesky.length_target).toBeLessThanOrEqual(300);
    expect(byPlatform.instagram).toMatchObject({ image_aspect: '4:5', emoji: 'many' });
    expect(byPlatform.pinterest.image_aspect).toBe('2:3');
    expect(byPlatform.tiktok.image_aspect).toBe('9:16');
    expect(byPlatform.google_business.hashtag_count).toBe(0);
    const one = await call('/platform_styles/linkedin');
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual({ platform_style: byPlatform.linkedin });
  });

  it('changes only the fields given, keeps them per workspace, and resets to the defaults', async () => {
    const before = (await call('/platform_styles/linkedin')).json.platform_style;
    const changed = await patch('linkedin', { hashtag_count: 5, emoji: 'none', call_to_action_text: 'Tell me what you think below.' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.platform_style).toEqual({
      ...before,
      hashtag_count: 5,
      emoji: 'none',
      call_to_action_text: 'Tell me what you think below.',
      customized: true,
      updated_at: expect.any(String),
    });
    expect((await call('/platform_styles/linkedin')).json.platform_style).toEqual(changed.json.platform_style);
    // Another workspace still has the defaults, and can change its own style of that platform.
    expect((await as(other)('/platform_styles/linkedin')).json.platform_style).toEqual(before);
    const its = await patch('linkedin', { hashtag_count: 1 }, other);
    expect(its.status, its.text).toBe(200);
    expect(its.json.platform_style).toMatchObject({ hashtag_count: 1, emoji: before.emoji, customized: true });
    expect((await call('/platform_styles/linkedin')).json.platform_style).toEqual(changed.json.platform_style);

    const cleared = await patch('linkedin', { call_to_action_text: null, length_target: 3000 });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.platform_style).toMatchObject({ call_to_action_text: null, length_target: 3000, hashtag_count: 5 });

    const reset = await call('/platform_styles/linkedin/reset', { method: 'POST' });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.json.platform_style).toEqual(before);
    expect((await call('/platform_styles/linkedin')).json.platform_style).toEqual(before);
    // Resetting again is harmless.
    expect((await call('/platform_styles/linkedin/reset', { method: 'POST' })).json.platform_style).toEqual(before);
  });

  it('keeps every one of concurrent changes of different fields', async () => {
    const results = await Promise.all([
      patch('threads', { hashtag_count: 2 }),
      patch('threads', { emoji: 'many' }),
      patch('threads', { line_breaks: 'none' }),
      patch('threads', { image_aspect: '1:1' }),
    ]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect((await call('/platform_styles/threads')).json.platform_style).toMatchObject({ hashtag_count: 2, emoji: 'many', line_breaks: 'none', image_aspect: '1:1', customized: true });
  });

  it('answers bad input 422 naming the field, and changes nothing', async () => {
    const before = (await call('/platform_styles/twitter')).json.platform_style;
    const cases: Array<[unknown, string]> = [
      [{ length_target: 281 }, 'length_target'],
      [{ length_target: 0 }, 'length_target'],
      [{ length_target: 2.5 }, 'length_target'],
      [{ length_target: 2 ** 40 }, 'length_target'],
      [{ hashtag_count: 31 }, 'hashtag_count'],
      [{ hashtag_count: -1 }, 'hashtag_count'],
      [{ emoji: 'lots' }, 'emoji'],
      [{ line_breaks: 'double' }, 'line_breaks'],
      [{ image_aspect: '5:4' }, 'image_aspect'],
      [{ call_to_action: 'yes' }, 'call_to_action'],
      [{ call_to_action_text: '' }, 'call_to_action_text'],
      [{ call_to_action_text: 'x'.repeat(201) }, 'call_to_action_text'],
      [{ tone: 'funny' }, 'tone'],
      [{}, 'platform_style'],
    ];
    for (const [style, field] of cases) {
      const res = await patch('twitter', style);
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(JSON.stringify(res.json.error), JSON.stringify(style)).toContain(field);
    }
    // Two bad fields are both named.
    const two = await patch('twitter', { length_target: 9999, hashtag_count: 99 });
    expectError(two, 422, 'INVALID_PARAMETERS');
    expect(JSON.stringify(two.json.error.details)).toMatch(/hashtag_count/);
    expectError(await call('/platform_styles/twitter', { method: 'PATCH', body: { hashtag_count: 2 } }), 422, 'INVALID_PARAMETERS');
    for (const path of ['/platform_styles/myspace', '/platform_styles/myspace/reset']) {
      const res = await call(path, { method: path.endsWith('reset') ? 'POST' : 'GET' });
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(JSON.stringify(res.json.error)).toContain('platform');
    }
    expect((await call('/platform_styles/twitter')).json.platform_style).toEqual(before);
  });

  it('needs platform_styles:read to read and platform_styles:write to change', async () => {
    const readOnly = await createWorkspace(stack, { scopes: ['platform_styles:read'] });
    expect((await as(readOnly)('/platform_styles')).status).toBe(200);
    expectError(await patch('twitter', { emoji: 'none' }, readOnly), 403, 'INSUFFICIENT_SCOPE');
    expectError(await as(readOnly)('/platform_styles/twitter/reset', { method: 'POST' }), 403, 'INSUFFICIENT_SCOPE');
    const none = await createWorkspace(stack, { scopes: ['posts:read'] });
    expectError(await as(none)('/platform_styles'), 403, 'INSUFFICIENT_SCOPE');
    expectError(await as(none)('/platform_styles/twitter'), 403, 'INSUFFICIENT_SCOPE');
    expect((await stack.api('/platform_styles')).status).toBe(401);
  });
});
