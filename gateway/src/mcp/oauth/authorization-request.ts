import { AppError, invalidParameters } from '@spa/errors';
import { SCOPES } from '@spa/vocabulary';
import { LRUCache } from 'lru-cache';
import type { Clients } from '../../clients.js';

/** An MCP client as the authorization server knows it: registered here, or described by its metadata document. */
export interface KnownClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
}

/** An authorization request (RFC 6749 §4.1.1 with PKCE and RFC 8707), checked. */
export interface AuthorizationRequest {
  client: KnownClient;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  state: string | undefined;
  resource: string;
}

/** Why a request cannot go on: `redirect` when the error may be sent back to the client's redirect URI. */
export class AuthorizationRefused extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_scope' | 'unsupported_response_type' | 'access_denied',
    message: string,
    readonly redirect: boolean,
  ) {
    super(message);
  }
}

const METADATA_MAX_BYTES = 5 * 1024;
/** Client ID metadata documents, kept a while (a client's sign-in reads it twice: the consent page and the code). */
const documents = new LRUCache<string, KnownClient>({ max: 1_000, ttl: 5 * 60_000 });

/** Reads a client ID metadata document: its client_id must be its own URL. */
async function clientFromDocument(clients: Clients, url: string): Promise<KnownClient> {
  const kept = documents.get(url);
  if (kept) return kept;
  let text: string;
  try {
    const res = await clients.web.get(url, METADATA_MAX_BYTES);
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk);
    text = Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    throw new AuthorizationRefused('invalid_request', `client_id: its metadata document could not be read (${(err as Error).message})`, false);
  }
  let doc: { client_id?: unknown; client_name?: unknown; redirect_uris?: unknown };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    throw new AuthorizationRefused('invalid_request', 'client_id: its metadata document is not JSON', false);
  }
  if (doc.client_id !== url) throw new AuthorizationRefused('invalid_request', 'client_id: the metadata document names another client_id', false);
  if (!Array.isArray(doc.redirect_uris) || !doc.redirect_uris.every((u) => typeof u === 'string')) {
    throw new AuthorizationRefused('invalid_request', 'client_id: the metadata document has no redirect_uris', false);
  }
  const client: KnownClient = {
    clientId: url,
    clientName: typeof doc.client_name === 'string' && doc.client_name.trim() ? doc.client_name.trim().slice(0, 100) : new URL(url).host,
    redirectUris: doc.redirect_uris as string[],
  };
  documents.set(url, client);
  return client;
}

/** The client of a client_id: a registered one (mcpc_…) or the URL of its metadata document. */
export async function knownClient(clients: Clients, clientId: string): Promise<KnownClient> {
  if (/^https?:\/\//.test(clientId)) return clientFromDocument(clients, clientId);
  try {
    const { client } = await clients.mcpAuthorization.getClient({ clientId });
    if (!client) throw new Error('no client');
    return { clientId: client.clientId, clientName: client.clientName, redirectUris: client.redirectUris };
  } catch (err) {
    if (err instanceof AppError && err.code !== 'NOT_FOUND') throw err;
    throw new AuthorizationRefused('invalid_request', `client_id: no client ${clientId} is registered`, false);
  }
}

const one = (query: Record<string, unknown>, name: string): string | undefined => {
  const v = query[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** The scopes asked for: space-separated known scopes; all of them when none are named. */
function scopesOf(raw: string | undefined): string[] {
  if (!raw) return [...SCOPES];
  const asked = [...new Set(raw.split(' ').filter(Boolean))];
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new AuthorizationRefused('invalid_scope', `scope: unknown scope ${unknown.join(', ')}`, true);
  return asked;
}

/**
 * Checks an authorization request. Until the client and its redirect URI are known good, a problem is shown
 * to the user (never sent to an unchecked URI); after that it goes back to the client.
 */
export async function checkAuthorizationRequest(clients: Clients, query: Record<string, unknown>, resource: string): Promise<AuthorizationRequest> {
  const clientId = one(query, 'client_id');
  if (!clientId) throw new AuthorizationRefused('invalid_request', 'client_id: required', false);
  const client = await knownClient(clients, clientId);
  const redirectUri = one(query, 'redirect_uri') ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) throw new AuthorizationRefused('invalid_request', 'redirect_uri: not one of the client’s redirect URIs', false);
  const state = one(query, 'state');
  if (one(query, 'response_type') !== 'code') throw new AuthorizationRefused('unsupported_response_type', 'response_type: only code is supported', true);
  const codeChallenge = one(query, 'code_challenge');
  if (!codeChallenge || one(query, 'code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
    throw new AuthorizationRefused('invalid_request', 'code_challenge: PKCE with code_challenge_method S256 is required', true);
  }
  const asked = one(query, 'resource');
  if (asked !== undefined && asked.replace(/\/$/, '') !== resource) throw new AuthorizationRefused('invalid_request', `resource: this server issues tokens for ${resource} only`, true);
  return { client, redirectUri, codeChallenge, scopes: scopesOf(one(query, 'scope')), state, resource };
}

/** The client's redirect URI with the answer's parameters (and the issuer, RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** Validation problems as the dashboard API answers them. */
export const asInvalid = (err: AuthorizationRefused) => invalidParameters([err.message], 'The authorization request is not valid');
