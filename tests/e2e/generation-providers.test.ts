import { createWorkspace, freshClientAddress, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { countCharacters } from '@spa/platforms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openai-stand-in.js';

// The generation service talks to a loopback OpenAI-compatible server through the real `openai` SDK.
let standIn: OpenAiStandIn;
let stack: Stack;
let strict: Stack;
beforeAll(async () => {
  standIn = await startOpenAiStandIn({ apiKey: 'sk-stand-in' });
  const provider = { AI_BASE_URL: standIn.baseUrl, AI_API_KEY: 'sk-stand-in', AI_MODELS: 'primary:Primary model:true:1200,secondary:Secondary model', AI_TIMEOUT_MS: '800' };
  stack = await startStack({ generationEnv: provider });
  // Without the built-in composer as the last resort, failing models mean GENERATION_FAILED.
  strict = await startStack({ generationEnv: { ...provider, AI_FALLBACK_BUILTIN: 'false' } });
});
afterAll(async () => {
  await Promise.all([stack?.stop(), strict?.stop()]);
  await standIn?.close();
});

const as =
  (s: Stack, ws: TestWorkspace) =>
  (path: string, opts: HttpOptions = {}) =>
    s.api(path, { token: ws.apiKey, method: 'POST', localAddress: freshClientAddress(), ...opts });
const modelsAsked = (since: number) => standIn.requests.slice(since).map((r) => r.model);

describe('generation through an OpenAI-compatible provider', () => {
  it('lists the configured models before the built-in composer, the first being the default', async () => {
    const ws = await createWorkspace(stack);
    const res = await stack.api('/preferences', { token: ws.apiKey, localAddress: freshClientAddress() });
    expect(res.status, res.text).toBe(200);
    expect(res.json.preferences.available_ai_models.map((m: { id: string }) => m.id)).toEqual(['primary', 'secondary', 'builtin-composer']);
    expect(res.json.preferences.available_ai_models[0]).toMatchObject({ premium: true, typical_cost_micros: 1200 });
  });

  it('uses the preferred model: its text, not degraded, with rules and voice in the prompt', async () => {
    standIn.behave('primary', { kind: 'reply', content: 'Tea is the quiet productivity hack nobody talks about. Brew, breathe, then ship.' });
    const ws = await createWorkspace(stack);
    await stack.accounts.createCustomRule({ workspaceId: ws.workspaceId, title: 'Tag', content: 'Always end with "#teatime". Keep it warm and human.', active: true });
    const since = standIn.requests.length;
    const res = await as(stack, ws)('/posts/generate', { body: { topic: 'tea at work', platform: 'twitter' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ body: 'Tea is the quiet productivity hack nobody talks about. Brew, breathe, then ship.\n\n#teatime', model_degraded: false });
    expect(modelsAsked(since)).toEqual(['primary']);
    const prompt = standIn.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('Keep it warm and human.');
    expect(prompt).toContain('Topic: tea at work');
  });

  it('falls back when the preferred model times out, and says so (model_degraded)', async () => {
    standIn.behave('primary', { kind: 'reply', delayMs: 3_000 });
    standIn.behave('secondary', { kind: 'reply' });
    const ws = await createWorkspace(stack);
    const since = standIn.requests.length;
    const res = await as(stack, ws)('/posts/generate', { body: { topic: 'tea at work', platform: 'linkedin' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.model_degraded).toBe(true);
    expect(res.json.body).toContain('tea at work');
    expect(modelsAsked(since)).toEqual(['primary', 'secondary']);

    // A batch: the timed-out model is not waited for again for every post.
    const before = standIn.requests.length;
    const started = Date.now();
    const batch = await as(stack, ws)('/posts/generate_batch', { body: { category: 'tea at work', count: 4, platform: 'linkedin' } });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.json.posts).toHaveLength(4);
    expect(batch.json.degraded_count).toBe(4);
    expect(modelsAsked(before).filter((m) => m === 'primary').length).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('falls back to the built-in composer when every configured model fails', async () => {
    standIn.behave('primary', { kind: 'error', status: 500 });
    standIn.behave('secondary', { kind: 'malformed' });
    const ws = await createWorkspace(stack);
    const res = await as(stack, ws)('/posts/generate_thread', { body: { topic: 'tea at work', tweet_count: 5, platform: 'twitter' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.model_degraded).toBe(true);
    expect(res.json.tweets).toHaveLength(5);
    for (const t of res.json.tweets) expect(countCharacters('twitter', t)).toBeLessThanOrEqual(280);
  });

  it('answers 422 GENERATION_FAILED when no model can write, and the quota unit is given back', async () => {
    standIn.behave('primary', { kind: 'error', status: 429, message: 'Rate limit reached' });
    standIn.behave('secondary', { kind: 'reply', delayMs: 3_000 });
    const ws = await createWorkspace(strict);
    const res = await as(strict, ws)('/posts/generate', { body: { topic: 'tea at work', platform: 'twitter' } });
    expectError(res, 422, 'GENERATION_FAILED');
    const billing = await strict.api('/billing/subscriptions/current', { token: ws.apiKey, localAddress: freshClientAddress() });
    expect(billing.json.quota.replies_used_today).toBe(0);
  });

  it('takes threads and carousels from the model in the requested JSON shape', async () => {
    standIn.behave('primary', { kind: 'reply' });
    const ws = await createWorkspace(stack);
    const thread = await as(stack, ws)('/posts/generate_thread', { body: { topic: 'tea at work', tweet_count: 6, platform: 'bluesky' } });
    expect(thread.status, thread.text).toBe(200);
    expect(thread.json).toMatchObject({ model_degraded: false });
    expect(thread.json.tweets).toHaveLength(6);
    await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'linkedin', username: 'li', sandbox: true });
    const carousel = await as(stack, ws)('/posts/generate_carousel', { body: { topic: 'tea at work', slide_count: 4 } });
    expect(carousel.status, carousel.text).toBe(200);
    expect(carousel.json.model_degraded).toBe(false);
    expect(carousel.json.slides).toHaveLength(4);
    expect(carousel.json.slides[0].title).toMatch(/^Idea 1: /);
    expect(carousel.json.document.page_count).toBe(4);
  });
});
