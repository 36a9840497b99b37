import type { ErrorCode } from '@spa/errors';
import type { Scope } from '@spa/vocabulary';
import type { z } from 'zod';
import type { Principal } from '../auth/authenticator.js';
import type { Clients } from '../clients.js';
import type { BucketName } from '../rate-limit/limits.js';

/**
 * Who may call a route:
 * - api_key: personal API keys (a Site token gets 403 ENDPOINT_NOT_AVAILABLE);
 * - site_token: Site Connection tokens only (an API key gets 403 ENDPOINT_NOT_AVAILABLE);
 * - dashboard: dashboard sessions only, which this API does not accept: every token gets 403.
 */
export type Audience = 'api_key' | 'site_token' | 'dashboard';

/** Plan rule: any plan; a paid plan with a live subscription; Pro or Team with a live subscription. */
export type PlanRule = 'any' | 'paid' | 'pro_team';

export interface HandlerInput<P, Q, B> {
  principal: Principal;
  clients: Clients;
  params: P;
  query: Q;
  body: B;
}

export interface Route<P = unknown, Q = unknown, B = unknown> {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** OpenAPI-style path relative to /api/v1, e.g. /posts/{id}. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  audience: Audience;
  scope?: Scope;
  plan: PlanRule;
  bucket?: BucketName;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Largest accepted JSON body (body-parser syntax); default 1mb. */
  bodyLimit?: string;
  status: 200 | 201 | 202;
  response?: z.ZodType;
  /** Error codes the backend may answer besides those the policy implies (the OpenAPI document lists them). */
  errors?: readonly ErrorCode[];
  /**
   * A GET whose answer depends only on the caller's workspace's posts and the request's URL: kept by the gateway
   * (its answer cache) and served again while the workspace's post-list version is unchanged. The posts service
   * moves that version on after every write, before answering it, so a write is seen by the very next request on
   * any replica.
   */
  cachedUntilPostsChange?: boolean;
  /** The one backend call of the route, returning the public JSON. */
  handle?: (input: HandlerInput<P, Q, B>) => Promise<unknown>;
}

/** A handler's answer with a status other than the route's usual one. */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** Keeps each route's schemas and handler types tied together while the table stays one list. */
export function route<P, Q, B>(r: Route<P, Q, B>): Route {
  return r as unknown as Route;
}
