import { AppError } from '@spa/errors';
import type { DubPort, LinkSettingsPort, ShortLinkDeps, ShortLinkStore } from '../domain/ports.js';

export interface DubClientOptions {
  /** https://api.dub.co, or the sandbox's `/dub`. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

interface DubLinkBody {
  id: string;
  shortLink: string;
}

/**
 * Dub's REST API (https://dub.co/docs/api-reference): `POST /links` to create a short link (with an `externalId`,
 * unique per Dub workspace, so a retry finds the link it made: `GET /links/info?externalId=ext_…` after Dub's 409
 * `conflict`), and `GET /analytics?event=clicks&groupBy=count&linkId=…&interval=all` for a link's clicks.
 * Failures are 503 SERVICE_UNAVAILABLE (with Dub's `Retry-After` on a 429) so callers retry later.
 */
export function dubClient(o: DubClientOptions): DubPort {
  const base = o.baseUrl.replace(/\/+$/, '');
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: T }> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${o.apiKey}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (err) {
      throw new AppError('SERVICE_UNAVAILABLE', `Dub did not answer ${method} ${path}: ${(err as Error).message}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json: json as T };
  };
  const fail = (what: string, r: { status: number; json: unknown }): AppError => {
    const message = (r.json as { error?: { message?: string } } | undefined)?.error?.message ?? `HTTP ${r.status}`;
    return new AppError('SERVICE_UNAVAILABLE', `Dub refused ${what}: ${message}`, r.status === 429 ? { retryAfter: 60 } : {});
  };
  return {
    async createLink(url, externalId) {
      const created = await call<DubLinkBody>('POST', '/links', { url, externalId });
      if (created.status === 200 || created.status === 201) return { linkId: created.json.id, shortUrl: created.json.shortLink };
      if (created.status !== 409) throw fail('to create a link', created);
      const existing = await call<DubLinkBody>('GET', `/links/info?externalId=${encodeURIComponent(`ext_${externalId}`)}`);
      if (existing.status !== 200) throw fail('to find the link it already has', existing);
      return { linkId: existing.json.id, shortUrl: existing.json.shortLink };
    },
    async clicks(linkId) {
      const r = await call<{ clicks?: number }>('GET', `/analytics?event=clicks&groupBy=count&interval=all&linkId=${encodeURIComponent(linkId)}`);
      if (r.status !== 200 || typeof r.json?.clicks !== 'number') throw fail('the clicks of a link', r);
      return r.json.clicks;
    },
  };
}

/**
 * Link shortening per workspace: its settings come from accounts (cached there briefly) and Dub is called with the
 * workspace's key (its own, else the deployment's fallback that accounts answers); one client per key.
 */
export function workspaceShortLinks(store: ShortLinkStore, accounts: LinkSettingsPort, o: Omit<DubClientOptions, 'apiKey'>): ShortLinkDeps {
  const clients = new Map<string, DubPort>();
  const clientFor = (apiKey: string): DubPort => {
    let client = clients.get(apiKey);
    if (!client) {
      if (clients.size > 10_000) clients.clear();
      clients.set(apiKey, (client = dubClient({ ...o, apiKey })));
    }
    return client;
  };
  return {
    store,
    async dubFor(workspaceId) {
      const { enabled, dubApiKey } = await accounts.linkShortening(workspaceId);
      return { enabled, dub: dubApiKey ? clientFor(dubApiKey) : undefined };
    },
  };
}
