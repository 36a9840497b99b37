import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';

/**
 * GET/PATCH /preferences through the gateway to accounts (which validates and stores them) and to the generation
 * service (which lists the AI models and checks `ai_model`). The generation service is configured with two models of an
 * OpenAI-compatible API; nothing here generates, so the API itself is never called.
 */
let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await startStack({
    generationEnv: {
      AI_BASE_URL: 'http://127.0.0.1:9/v1',
      AI_API_KEY: 'test-key',
      AI_MODELS: 'acme-large:Acme Large:true:1500,acme-small:Acme Small:false:200',
    },
  });
  ws = await createWorkspace(stack, { tier: 'starter' });
});
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions & { as?: TestWorkspace } = {}) => stack.api(path, { token: (opts.as ?? ws).apiKey, localAddress: freshClientAddress(), ...opts });
const patch = (preferences: unknown, as?: TestWorkspace) => call('/preferences', { method: 'PATCH', body: { preferences }, as });

describe('GET /preferences', () => {
  it('answers the defaults, the models this deployment offers and the configured default model', async () => {
    const other = await createWorkspace(stack, { tier: 'pro' });
    const res = await call('/preferences', { as: other });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      preferences: {
        tone: 'professional',
        include_emoji: false,
        structure: 'auto',
        custom_rules: '',
        timezone: 'UTC',
        use_post_metrics_for_ai: true,
        theme: 'light',
        ai_model: 'acme-large',
        available_ai_models: [
          { id: 'acme-large', label: 'Acme Large', premium: true, typical_cost_micros: 1500, builtin: false },
          { id: 'acme-small', label: 'Acme Small', premium: false, typical_cost_micros: 200, builtin: false },
          { id: 'builtin-composer', label: expect.stringMatching(/built-in/i), premium: false, typical_cost_micros: 0, builtin: true },
        ],
        email_notifications: { post_failure: true, weekly_briefing: true, product_tips: true, re_engagement: true },
        link_shortening_enabled: false,
        dub_api_key_set: false,
      },
    });
  });

  it('needs preferences:read and a live paid subscription', async () => {
    const writeOnly = await createWorkspace(stack, { scopes: ['preferences:write'] });
    expectError(await call('/preferences', { as: writeOnly }), 403, 'INSUFFICIENT_SCOPE');
    const pastDue = await createWorkspace(stack, { tier: 'starter', status: 'past_due' });
    expectError(await call('/preferences', { as: pastDue }), 403, 'NO_ACTIVE_SUBSCRIPTION');
    expectError(await stack.api('/preferences'), 401, 'UNAUTHORIZED');
  });
});

describe('PATCH /preferences', () => {
  it('merges the fields given and leaves the others as they were', async () => {
    const mine = await createWorkspace(stack);
    const first = await patch({ tone: 'witty', email_notifications: { product_tips: false } }, mine);
    expect(first.status, first.text).toBe(200);
    expect(first.json.preferences).toMatchObject({
      tone: 'witty',
      structure: 'auto',
      timezone: 'UTC',
      email_notifications: { post_failure: true, weekly_briefing: true, product_tips: false, re_engagement: true },
    });
    const second = await patch({ timezone: 'America/Argentina/Buenos_Aires', ai_model: 'acme-small', include_emoji: true }, mine);
    expect(second.status, second.text).toBe(200);
    expect(second.json.preferences).toMatchObject({
      tone: 'witty',
      timezone: 'America/Argentina/Buenos_Aires',
      ai_model: 'acme-small',
      include_emoji: true,
      email_notifications: { product_tips: false, re_engagement: true },
    });
    expect((await call('/preferences', { as: mine })).json).toEqual(second.json);
    // Another workspace is untouched.
    expect((await call('/preferences')).json.preferences).toMatchObject({ tone: 'professional', ai_model: 'acme-large' });
  });

  it('accepts the built-in composer as a model and shows the choice', async () => {
    const mine = await createWorkspace(stack);
    const res = await patch({ ai_model: 'builtin-composer' }, mine);
    expect(res.status, res.text).toBe(200);
    expect(res.json.preferences.ai_model).toBe('builtin-composer');
  });

  it('names every bad value at once and writes nothing', async () => {
    const mine = await createWorkspace(stack);
    const before = (await call('/preferences', { as: mine })).json;
    const res = await patch(
      {
        tone: 'angry',
        structure: 'haiku',
        theme: 'neon',
        timezone: 'Mars/Olympus_Mons',
        ai_model: 'gpt-9',
        custom_rules: 'x'.repeat(5001),
        include_emoji: true,
      },
      mine,
    );
    expectError(res, 422, 'INVALID_PARAMETERS');
    const details: string[] = res.json.error.details;
    expect(details).toHaveLength(6);
    for (const field of ['tone', 'structure', 'theme', 'timezone', 'ai_model', 'custom_rules']) {
      expect(
        details.some((d) => d.startsWith(`preferences.${field}:`)),
        `${field} in ${details.join(' | ')}`,
      ).toBe(true);
    }
    expect(details.find((d) => d.startsWith('preferences.ai_model:'))).toContain('acme-large');
    expect((await call('/preferences', { as: mine })).json).toEqual(before);
  });

  it('refuses a model that is not offered alone, and writes none of the good fields beside it', async () => {
    const mine = await createWorkspace(stack);
    const before = (await call('/preferences', { as: mine })).json;
    const res = await patch({ tone: 'witty', timezone: 'Asia/Tokyo', ai_model: 'gpt-9' }, mine);
    expectError(res, 422, 'INVALID_PARAMETERS');
    expect(res.json.error.details).toEqual([expect.stringMatching(/^preferences\.ai_model: .*acme-large, acme-small, builtin-composer/)]);
    expect((await call('/preferences', { as: mine })).json).toEqual(before);
  });

  it('passes on what only accounts refuses, naming the public field (a zone name without DST rules such as EST)', async () => {
    const res = await patch({ timezone: 'EST' });
    expectError(res, 422, 'INVALID_PARAMETERS');
    expect(res.json.error.details).toEqual([expect.stringMatching(/^preferences\.timezone: /)]);
    expect((await call('/preferences')).json.preferences.timezone).toBe('UTC');
  });

  it('names every structural problem at once: unknown fields, wrong types, the read-only model list', async () => {
    const res = await patch({
      tone: 5,
      include_emoji: 'yes',
      colour: 'blue',
      available_ai_models: [],
      email_notifications: { post_failure: 'no', sms: true },
    });
    expectError(res, 422, 'INVALID_PARAMETERS');
    const details: string[] = res.json.error.details;
    for (const needle of ['preferences.tone', 'preferences.include_emoji', 'colour', 'preferences.available_ai_models', 'preferences.email_notifications.post_failure', 'sms']) {
      expect(
        details.some((d) => d.includes(needle)),
        `${needle} in ${details.join(' | ')}`,
      ).toBe(true);
    }
    expect(details.find((d) => d.startsWith('preferences.available_ai_models'))).toContain('read-only');
    expectError(await patch({}), 422, 'INVALID_PARAMETERS');
    expectError(await call('/preferences', { method: 'PATCH', body: { tone: 'witty' } }), 422, 'INVALID_PARAMETERS');
    expect((await call('/preferences')).json.preferences.tone).toBe('professional');
  });

  it('keeps concurrent changes of different fields', async () => {
    const mine = await createWorkspace(stack);
    const results = await Promise.all([
      patch({ tone: 'bold' }, mine),
      patch({ structure: 'list' }, mine),
      patch({ theme: 'dark' }, mine),
      patch({ email_notifications: { weekly_briefing: false } }, mine),
    ]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect((await call('/preferences', { as: mine })).json.preferences).toMatchObject({
      tone: 'bold',
      structure: 'list',
      theme: 'dark',
      email_notifications: { weekly_briefing: false, post_failure: true },
    });
  });

  it('needs preferences:write', async () => {
    const readOnly = await createWorkspace(stack, { scopes: ['preferences:read'] });
    expectError(await patch({ tone: 'bold' }, readOnly), 403, 'INSUFFICIENT_SCOPE');
    expect((await call('/preferences', { as: readOnly })).json.preferences.tone).toBe('professional');
  });
});
