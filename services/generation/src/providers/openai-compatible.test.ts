import { AppError } from '@spa/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandIn, type OpenAiStandIn } from '../../../../tests/support/openai-stand-in.js';
import { OpenAiCompatibleProvider } from './openai-compatible.js';

let standIn: OpenAiStandIn;
beforeAll(async () => {
  standIn = await startOpenAiStandIn({ apiKey: 'sk-test-key' });
});
afterAll(async () => {
  await standIn?.close();
});

const provider = (timeoutMs = 2_000, apiKey = 'sk-test-key') => new OpenAiCompatibleProvider({ baseUrl: standIn.baseUrl, apiKey, timeoutMs });
const messages = [
  { role: 'system' as const, content: 'You write posts.' },
  { role: 'user' as const, content: 'Topic: tea\nWrite one post.' },
];
const options = (model: string) => ({ model, maxTokens: 300, temperature: 0.7 });

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('GENERATION_FAILED');
  return err as AppError;
}

describe('OpenAI-compatible provider against a loopback /v1/chat/completions', () => {
  it('sends the documented request and returns choices[0].message.content', async () => {
    standIn.behave('ok-model', { kind: 'reply', content: '  A good post about tea.  ' });
    const text = await provider().complete(messages, { ...options('ok-model'), json: true });
    expect(text).toBe('A good post about tea.');
    const sent = standIn.requests.at(-1)!;
    expect(sent).toMatchObject({ model: 'ok-model', messages, max_tokens: 300, temperature: 0.7, response_format: { type: 'json_object' } });
    expect(sent.authorization).toBe('Bearer sk-test-key');
  });

  it('maps error statuses with OpenAI error bodies, without retrying', async () => {
    for (const status of [429, 500, 503]) {
      standIn.behave(`e${status}`, { kind: 'error', status, message: `boom ${status}` });
      const before = standIn.requests.length;
      const err = await failure(provider().complete(messages, options(`e${status}`)));
      expect(err.message).toContain(`HTTP ${status}`);
      expect(standIn.requests.length - before).toBe(1);
    }
    const unauthorized = await failure(provider(2_000, 'wrong-key').complete(messages, options('ok-model')));
    expect(unauthorized.message).toContain('HTTP 401');
  });

  it('fails on a timeout, on malformed JSON and on an answer without choices', async () => {
    standIn.behave('slow', { kind: 'reply', delayMs: 1_500 });
    const started = Date.now();
    expect((await failure(provider(300).complete(messages, options('slow')))).message).toMatch(/timed out after 300 ms/);
    expect(Date.now() - started).toBeLessThan(1_400);

    standIn.behave('broken', { kind: 'malformed' });
    expect((await failure(provider().complete(messages, options('broken')))).message).toMatch(/malformed/);

    standIn.behave('empty', { kind: 'no_choices' });
    expect((await failure(provider().complete(messages, options('empty')))).message).toMatch(/choices\[0\]/);

    standIn.behave('blank', { kind: 'reply', content: '   ' });
    expect((await failure(provider().complete(messages, options('blank')))).message).toMatch(/empty/);
  });

  it('stops when the caller aborts (the request deadline)', async () => {
    standIn.behave('slow2', { kind: 'reply', delayMs: 1_500 });
    const err = await failure(provider(5_000).complete(messages, { ...options('slow2'), signal: AbortSignal.timeout(200) }));
    expect(err.message).toMatch(/cut off|timed out/);
  });

  it('fails clearly when nothing listens', async () => {
    const dead = new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', timeoutMs: 1_000 });
    expect((await failure(dead.complete(messages, options('any')))).message).toMatch(/could not be reached|timed out/);
  });
});
