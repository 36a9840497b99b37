import { countCharacters } from '@spa/platforms';
import { createWorkspace, freshClientAddress, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openai-stand-in.js';

/**
 * Platform styles govern generation: a style PATCHed through the gateway (stored by accounts) is followed
 * by the built-in composer and stated in the prompt an OpenAI-compatible model receives (a loopback stand-in).
 */
let standIn: OpenAiStandIn;
let stack: Stack;
beforeAll(async () => {
  standIn = await startOpenAiStandIn({ apiKey: 'sk-stand-in' });
  stack = await startStack({ generationEnv: { AI_BASE_URL: standIn.baseUrl, AI_API_KEY: 'sk-stand-in', AI_MODELS: 'primary', AI_TIMEOUT_MS: '5000' } });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await standIn?.close();
}, 120_000);

const as =
  (w: TestWorkspace) =>
  (path: string, opts: HttpOptions = {}) =>
    stack.api(path, { token: w.apiKey, localAddress: freshClientAddress(), ...opts });
const HASHTAG = /(?:^|\s)#[\p{L}\p{N}_]+/gu;
const CTA = 'Book a demo at example.com';
const STYLE = { hashtag_count: 0, call_to_action: true, call_to_action_text: CTA, length_target: 400, line_breaks: 'none', emoji: 'none' };

describe('generation follows the platform style', () => {
  it('built-in composer: no hashtags, the call to action text, one block within the length target; other platforms keep their defaults', async () => {
    const ws = await createWorkspace(stack);
    const call = as(ws);
    const prefs = await call('/preferences', { method: 'PATCH', body: { preferences: { ai_model: 'builtin-composer', include_emoji: true } } });
    expect(prefs.status, prefs.text).toBe(200);
    // Before the change, LinkedIn's defaults give hashtags (3) and paragraphs.
    const before = await call('/posts/generate_batch', { method: 'POST', body: { category: 'remote work for small teams', platform: 'linkedin', count: 3 } });
    expect(before.status, before.text).toBe(200);
    for (const body of before.json.posts as string[]) expect(body.match(HASHTAG)?.length, body).toBe(3);

    const patched = await call('/platform_styles/linkedin', { method: 'PATCH', body: { platform_style: STYLE } });
    expect(patched.status, patched.text).toBe(200);
    const batch = await call('/posts/generate_batch', { method: 'POST', body: { category: 'remote work for small teams', platform: 'linkedin', count: 4 } });
    expect(batch.status, batch.text).toBe(200);
    const one = await call('/posts/generate', { method: 'POST', body: { topic: 'hiring your first engineer', platform: 'linkedin' } });
    expect(one.status, one.text).toBe(200);
    for (const body of [...(batch.json.posts as string[]), one.json.body as string]) {
      expect(body.match(HASHTAG), body).toBeNull();
      expect(body.trimEnd().endsWith(CTA), body).toBe(true);
      expect(body.includes('\n'), body).toBe(false);
      expect(countCharacters('linkedin', body), body).toBeLessThanOrEqual(400);
      expect(/\p{Extended_Pictographic}/u.test(body), body).toBe(false);
    }

    // The style is per platform: Facebook still closes with its own call to action, not LinkedIn's.
    const facebook = await call('/posts/generate', { method: 'POST', body: { topic: 'remote work for small teams', platform: 'facebook' } });
    expect(facebook.status, facebook.text).toBe(200);
    expect(facebook.json.body).not.toContain(CTA);

    // After a reset, LinkedIn's defaults are back.
    expect((await call('/platform_styles/linkedin/reset', { method: 'POST' })).status).toBe(200);
    const reset = await call('/posts/generate', { method: 'POST', body: { topic: 'remote work for small teams', platform: 'linkedin' } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.json.body.match(HASHTAG)?.length, reset.json.body).toBe(3);
    expect(reset.json.body).not.toContain(CTA);
  });

  it("built-in composer: a LinkedIn carousel's PDF pages take the style's image aspect and its last slide the call to action text", async () => {
    const ws = await createWorkspace(stack);
    const call = as(ws);
    expect((await call('/preferences', { method: 'PATCH', body: { preferences: { ai_model: 'builtin-composer' } } })).status).toBe(200);
    await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'linkedin', username: 'li-user', sandbox: true });
    const patched = await call('/platform_styles/linkedin', {
      method: 'PATCH',
      body: { platform_style: { image_aspect: '4:5', call_to_action_text: 'Follow for more pricing notes.', hashtag_count: 0 } },
    });
    expect(patched.status, patched.text).toBe(200);
    const res = await call('/posts/generate_carousel', { method: 'POST', body: { topic: 'Pricing your first SaaS product', slide_count: 4 } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.slides.at(-1).body).toBe('Follow for more pricing notes.');
    expect(res.json.caption.match(HASHTAG), res.json.caption).toBeNull();
    const pdf = Buffer.from(await (await fetch(res.json.document.url)).arrayBuffer()).toString('latin1');
    expect(pdf.match(/\/Type \/Page\b(?!s)/g)).toHaveLength(4);
    expect(pdf).toMatch(/\/MediaBox \[0 0 1080 1350\]/);
    expect(pdf).not.toMatch(/\/MediaBox \[0 0 1080 1080\]/);
  });

  it('OpenAI-compatible model: the prompt states the style of the platform', async () => {
    const ws = await createWorkspace(stack);
    const call = as(ws);
    const patched = await call('/platform_styles/linkedin', { method: 'PATCH', body: { platform_style: STYLE } });
    expect(patched.status, patched.text).toBe(200);
    standIn.behave('primary', { kind: 'reply', content: `Small teams win remote work with written decisions. ${CTA}` });
    const since = standIn.requests.length;
    const res = await call('/posts/generate', { method: 'POST', body: { topic: 'remote work for small teams', platform: 'linkedin' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ body: `Small teams win remote work with written decisions. ${CTA}`, model_degraded: false });
    const asked = standIn.requests.slice(since);
    expect(asked.map((r) => r.model)).toEqual(['primary']);
    const prompt = asked[0]!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('House style for LinkedIn');
    expect(prompt).toContain('aim for 400 characters');
    expect(prompt).toContain('Hashtags: none');
    expect(prompt).toContain('one block, without line breaks');
    expect(prompt).toContain(`"${CTA}"`);
    expect(prompt).toContain('at most 400 characters');

    // Another platform's prompt carries that platform's (default) style, not LinkedIn's.
    const since2 = standIn.requests.length;
    expect((await call('/posts/generate', { method: 'POST', body: { topic: 'remote work for small teams', platform: 'instagram' } })).status).toBe(200);
    const other = standIn.requests
      .slice(since2)[0]!
      .messages.map((m) => m.content)
      .join('\n');
    expect(other).toContain('House style for Instagram');
    expect(other).toContain('exactly 8');
    expect(other).not.toContain(CTA);
  });
});
