import { AppError } from '@spa/errors';

/** One message of an OpenAI-style chat conversation. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionOptions {
  model: string;
  maxTokens: number;
  temperature: number;
  /** Abort: the caller's deadline for this one call. */
  signal?: AbortSignal;
  /** Ask the model for a JSON object (`response_format: json_object`). */
  json?: boolean;
}

/**
 * The port every remote chat model sits behind: text in, text out. A failure of any kind
 * (network, timeout, HTTP status, malformed or empty answer) is thrown as `modelFailed(...)` (AppError GENERATION_FAILED)
 * so the fallback chain can move on to the next model.
 */
export interface ChatProvider {
  readonly id: string;
  complete(messages: ChatMessage[], options: CompletionOptions): Promise<string>;
}

/**
 * The error a model's failure is raised as (network, timeout, HTTP status, malformed or empty
 * answer, unacceptable output). The fallback chain catches it and tries the next model; when no
 * model is left the request ends in this same public code.
 */
export function modelFailed(model: string, reason: string, cause?: unknown): AppError {
  return new AppError('GENERATION_FAILED', `Model ${model} ${reason}`, cause === undefined ? {} : { cause });
}
