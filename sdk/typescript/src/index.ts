import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { unwrap } from './errors.js';
import type { components, operations, paths } from './generated/openapi.js';
import { retryingFetch, type RetryOptions } from './retry.js';

export type { components, operations, paths };
export { ApiError, unwrap, type ErrorEnvelope } from './errors.js';
export { retryAfterMs, retryingFetch, type RetryOptions } from './retry.js';
export {
  SIGNATURE_HEADER,
  verifyWebhook,
  verifyWebhookPayload,
  WebhookVerificationError,
  type LoggedEvent,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookPayload,
  type WebhookPayloads,
} from './webhooks.js';

export type Post = components['schemas']['Post'];
export type ListPostsQuery = NonNullable<operations['getPosts']['parameters']['query']>;

export interface ClientOptions {
  /** The API root, e.g. https://api.example.com/api/v1 */
  baseUrl: string;
  /** A personal API key (sk_live_…) or, for Site Push, a Site Connection token. */
  apiKey: string;
  /** Retry of 429 and 503 answers (honouring Retry-After). */
  retry?: RetryOptions;
  /** Makes an Idempotency-Key for a POST that has none (default: a random UUID). */
  idempotencyKey?: () => string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Gives every POST an Idempotency-Key (unless the caller set one), so that its retries run once. */
function idempotency(makeKey: () => string): Middleware {
  return {
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('Idempotency-Key', makeKey());
      return request;
    },
  };
}

export type ApiClient = Client<paths> & {
  /** Every post matching `query`, page by page (offset paging, `limit` posts per request, 200 by default). */
  listAllPosts(query?: ListPostsQuery): AsyncGenerator<Post, void, undefined>;
};

/**
 * A typed client of every operation of the API (generated from its OpenAPI document):
 * `api.GET('/posts/{id}', { params: { path: { id } } })` answers `{ data, error, response }`; wrap it in
 * `unwrap(...)` to get the data or an ApiError.
 */
export function createApiClient(options: ClientOptions): ApiClient {
  const inner = options.fetch ?? globalThis.fetch;
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(inner, options.retry),
  });
  client.use(idempotency(options.idempotencyKey ?? randomUUID));
  async function* listAllPosts(query: ListPostsQuery = {}): AsyncGenerator<Post, void, undefined> {
    const limit = query.limit ?? 200;
    for (let offset = query.offset ?? 0; ;) {
      const page = await unwrap(client.GET('/posts', { params: { query: { ...query, limit, offset } } }));
      yield* page.posts;
      offset += page.posts.length;
      if (page.posts.length === 0 || offset >= page.meta.total_count) return;
    }
  }
  return Object.assign(client, { listAllPosts });
}
