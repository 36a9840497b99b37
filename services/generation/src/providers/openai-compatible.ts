import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { modelFailed, type ChatMessage, type ChatProvider, type CompletionOptions } from '../domain/models/chat-provider.js';

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey: string | undefined;
  /** Per-call timeout; the fallback chain may pass a shorter deadline through `signal`. */
  timeoutMs: number;
}

/**
 * Any server speaking OpenAI's `POST /v1/chat/completions` (OpenAI, Azure OpenAI's v1 endpoint,
 * OpenRouter, vLLM, Ollama, llama.cpp server), through the official SDK. The SDK's own retries are
 * off (`maxRetries: 0`): the fallback chain decides what to try next.
 */
export class OpenAiCompatibleProvider implements ChatProvider {
  readonly id = 'openai-compatible';
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      // Local servers (vLLM, Ollama, llama.cpp) accept any key; the SDK insists on one.
      apiKey: options.apiKey || 'not-needed',
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  async complete(messages: ChatMessage[], options: CompletionOptions): Promise<string> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        {
          model: options.model,
          messages,
          max_tokens: options.maxTokens,
          temperature: options.temperature,
          ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
        },
        { signal: options.signal, timeout: this.options.timeoutMs },
      );
    } catch (err) {
      throw describeFailure(options.model, err, this.options.timeoutMs);
    }
    const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
    if (!choice || typeof choice.message?.content !== 'string') {
      throw modelFailed(options.model, 'answered without choices[0].message.content');
    }
    const text = choice.message.content.trim();
    if (!text) throw modelFailed(options.model, 'answered with empty content');
    return text;
  }
}

function describeFailure(model: string, err: unknown, timeoutMs: number) {
  if (err instanceof APIConnectionTimeoutError) return modelFailed(model, `timed out after ${timeoutMs} ms`, err);
  // The chain aborts a call when the request's overall budget runs out.
  if (err instanceof APIUserAbortError) return modelFailed(model, 'was cut off by the request deadline', err);
  if (err instanceof APIError) {
    return err.status === undefined ? modelFailed(model, `could not be reached: ${err.message}`, err) : modelFailed(model, `answered HTTP ${err.status}: ${err.message}`, err);
  }
  // A 2xx answer whose body is not JSON (the SDK's JSON.parse throws a SyntaxError), or similar.
  return modelFailed(model, `answered malformed content: ${err instanceof Error ? err.message : String(err)}`, err);
}
