import { callPlatform, field } from './http.js';
import { ConnectorError, postGone, type Published, type TargetAccount } from './types.js';

/**
 * Meta Graph API plumbing shared by the Instagram, Threads and Facebook connectors: the token goes in
 * the `access_token` query parameter, POST parameters are form-encoded, and Meta's error codes are
 * classified (a 400 with code 190/102 is an invalid token → auth; codes 4/17/32/613/80xxx are rate
 * limits → rate_limited). Media containers (Instagram, Threads) are created, polled until FINISHED, and
 * published.
 */

export interface ContainerPolling {
  /** Wait between two status reads (the first read is immediate). */
  intervalMs: number;
  /** Status reads before giving up (transient: nothing was published). */
  attempts: number;
}
export const DEFAULT_POLLING: ContainerPolling = { intervalMs: 2_000, attempts: 15 };

type Params = Record<string, string | undefined>;

/** Facebook answers some permalinks (videos) relative to its site. */
const absolute = (link: string) => (link.startsWith('/') ? `https://www.facebook.com${link}` : link);

const AUTH_CODES = new Set([102, 190]);
const RATE_CODES = new Set([4, 17, 32, 613]);

/**
 * Meta answers most errors with 400 (or 403) and `{error:{message,type,code}}`; the code tells a bad
 * token or a rate limit from a refusal. callPlatform keeps the body only in its message (first 300
 * characters; `code` comes right after `message` and `type`), so the code is read from there.
 */
function classify(err: unknown): unknown {
  if (!(err instanceof ConnectorError) || err.kind !== 'rejected') return err;
  const code = Number(/"code":(\d+)/.exec(err.message)?.[1]);
  if (AUTH_CODES.has(code)) return new ConnectorError('auth', err.message, undefined, err.status);
  if (RATE_CODES.has(code) || (code >= 80_000 && code < 80_100)) return new ConnectorError('rate_limited', err.message, undefined, err.status);
  return err;
}

/** A credential the platform needs besides the token; without it the account must be reconnected. */
export function credential(target: TargetAccount, key: string): string {
  const value = target.credentials[key];
  if (!value) throw new ConnectorError('auth', `credentials.${key} is missing (reconnect the account)`);
  return value;
}

export interface MetaGraph {
  call(target: TargetAccount, path: string, options?: { method?: 'GET' | 'POST' | 'DELETE'; params?: Params }): Promise<Record<string, unknown>>;
  /** Creates a media container at `{user}/{edge}` and waits until its status is FINISHED; answers its id. */
  container(target: TargetAccount, path: string, params: Params): Promise<string>;
  /** Publishes a FINISHED container (`media_publish` / `threads_publish`); answers the media id. */
  publish(target: TargetAccount, path: string, creationId: string): Promise<string>;
  /** The post's permalink (`fields=<name>`), or `fallback` when it cannot be read: the post exists either way. */
  permalink(target: TargetAccount, id: string, name: string, fallback: string): Promise<string>;
  /** Each metric's value from `/{id}/insights` (`values[0].value` or `total_value.value`). */
  insights(target: TargetAccount, id: string, metrics: string[]): Promise<Record<string, unknown>>;
  /** The account's recent post (`path` lists them) with this text, made at or after `since`. */
  findRecent(target: TargetAccount, path: string, keys: { text: string; time: string; permalink: string }, text: string | undefined, since: Date): Promise<Published | null>;
}

/**
 * `statusField`: where a container's state is read: Instagram `status_code`, Threads `status`
 * (both IN_PROGRESS → FINISHED, or ERROR / EXPIRED).
 */
export function metaGraph(baseUrl: string, statusField: 'status_code' | 'status' = 'status_code', polling: ContainerPolling = DEFAULT_POLLING): MetaGraph {
  const graph: MetaGraph = {
    async call(target, path, { method = 'GET', params = {} } = {}) {
      const query = new URLSearchParams({ access_token: target.credentials.access_token ?? '' });
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) if (value !== undefined) (method === 'POST' ? form : query).set(key, value);
      try {
        const answer = await callPlatform(`${baseUrl}/${path}?${query}`, { method, ...(method === 'POST' ? { body: form } : {}) });
        return (answer.body ?? {}) as Record<string, unknown>;
      } catch (err) {
        throw classify(err);
      }
    },

    async container(target, path, params) {
      const id = field<string>(await graph.call(target, path, { method: 'POST', params }), 'id');
      for (let attempt = 0; attempt < polling.attempts; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, polling.intervalMs));
        const container = await graph.call(target, id, { params: { fields: statusField === 'status' ? 'status,error_message' : 'status_code,status' } });
        const status = container[statusField];
        if (status === 'FINISHED') return id;
        if (status === 'ERROR' || status === 'EXPIRED') {
          throw new ConnectorError('rejected', `media container ${id} is ${status}: ${String(container.error_message ?? container.status ?? '')}`);
        }
      }
      throw new ConnectorError('transient', `media container ${id} was not ready after ${polling.attempts} status reads`);
    },

    async publish(target, path, creationId) {
      return field<string>(await graph.call(target, path, { method: 'POST', params: { creation_id: creationId } }), 'id');
    },

    async permalink(target, id, name, fallback) {
      try {
        const link = (await graph.call(target, id, { params: { fields: name } }))[name];
        return typeof link === 'string' && link ? absolute(link) : fallback;
      } catch {
        return fallback;
      }
    },

    async insights(target, id, metrics) {
      const body = await graph.call(target, `${id}/insights`, { params: { metric: metrics.join(',') } });
      type Metric = { name: string; values?: Array<{ value?: unknown }>; total_value?: { value?: unknown } };
      return Object.fromEntries(((body.data ?? []) as Metric[]).map((m) => [m.name, m.total_value?.value ?? m.values?.[0]?.value]));
    },

    async findRecent(target, path, keys, text, since) {
      const body = await graph.call(target, path, {
        params: { fields: `id,${keys.text},${keys.time},${keys.permalink}`, since: String(Math.floor(since.getTime() / 1000)), limit: '50' },
      });
      const found = ((body.data ?? []) as Array<Record<string, string | undefined>>).find((p) => p[keys.text] === text && Date.parse(p[keys.time] ?? '') >= Math.floor(since.getTime() / 1000) * 1000);
      return found?.id ? { platformPostId: found.id, permalink: absolute(found[keys.permalink] ?? '') } : null;
    },
  };
  return graph;
}

/** A count from an insights or fields answer (Meta sends numbers; absent means 0). */
export const count = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? 0) || 0);

/**
 * Graph answers a read of an object that no longer exists with 400, code 100, subcode 33 ("does not exist"):
 * that error as `rejected` with status 404, so the post is reported gone like a 404 on other platforms.
 * Any other error is answered unchanged.
 */
export function goneWhenMissing(err: unknown): unknown {
  if (err instanceof ConnectorError && err.kind === 'rejected' && (/"error_subcode":33\b/.test(err.message) || /Object with ID '[^']*' does not exist/.test(err.message))) return postGone(err.message);
  return err;
}

/** Throws the error as goneWhenMissing answers it: for `.catch` on a read of a post. */
export function throwGoneWhenMissing(err: unknown): never {
  throw goneWhenMissing(err);
}
