import http from 'node:http';
import type { RefreshRefusal } from './oauth/store.js';
import { compile, type Route, type SandboxPlatform, type SandboxRequest, type SandboxResponse } from './router.js';
import { SandboxState, type Fault, type FaultTarget, type TelegramChat } from './state.js';
import { IDENTITY_ROUTES } from './oauth/identities.js';
import { oauthRoutes } from './oauth/routes.js';

const GRAPH_STANDINS = new Set(['facebook', 'instagram', 'threads']);
const TOKEN = /^(?:Bearer|Bot|OAuth)\s+(\S+)$/i;

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (!raw.length) return undefined;
  if (contentType?.includes('application/json')) {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      return undefined;
    }
  }
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  return raw;
}

function send(res: http.ServerResponse, answer: SandboxResponse): void {
  const isJson = answer.body !== undefined && typeof answer.body !== 'string';
  res.writeHead(answer.status, { ...(isJson ? { 'content-type': 'application/json' } : {}), ...answer.headers });
  res.end(answer.body === undefined ? undefined : isJson ? JSON.stringify(answer.body) : String(answer.body));
}

/** Answers a create hit by a fault; undefined when the create should go ahead (maybe dropped after). */
function faultAnswer(fault: Fault, platform: SandboxPlatform): SandboxResponse | 'hang' | undefined {
  switch (fault) {
    case 'server_error':
      return { status: 503, body: { error: 'sandbox: injected server error' } };
    case 'rate_limited':
      return { status: 429, body: { error: 'sandbox: injected rate limit' }, headers: { 'retry-after': '1' } };
    case 'auth':
      return platform.unauthorized();
    case 'timeout':
      return 'hang';
    case 'drop_after_accept':
      return undefined;
  }
}

export interface Sandbox {
  url: string;
  state: SandboxState;
  close(): Promise<void>;
}

/**
 * One HTTP server for every platform stand-in, each under `/<platform>/…`, plus control endpoints:
 * `POST /_sandbox/faults {platform, fault, times, on: 'create'|'metrics', account?}` (with `account`, only that account's calls), `GET /_sandbox/posts?platform=`, `GET /_sandbox/post_counts`
 * (`{counts: {<platform>: n}}`: how many posts each platform holds, cheap to poll), `POST /_sandbox/reset`,
 * `POST /_sandbox/telegram/chats {id, type, title, username?, bot_status?, can_post_messages?}` (a chat the Telegram bots know),
 * `POST /_sandbox/latency {ms}`, `POST /_sandbox/metrics_growth {per_minute}`, `GET /_sandbox/requests?platform=` (every platform call received).
 */
export async function startSandbox(platforms: SandboxPlatform[], port = 0, host = '127.0.0.1', opts: { oauth?: boolean } = {}): Promise<Sandbox> {
  const state = new SandboxState();
  // With `oauth` (the sandbox process), each platform's authorization server and identity endpoints: after its API routes, except on the Graph
  // stand-ins, whose catch-all `GET /:id` would answer `/me` and `/access_token`.
  const routesOf = (p: SandboxPlatform) => {
    if (!opts.oauth) return p.routes;
    const auth = [...oauthRoutes(p.name), ...(IDENTITY_ROUTES[p.name] ?? [])];
    return GRAPH_STANDINS.has(p.name) ? [...auth, ...p.routes] : [...p.routes, ...auth];
  };
  const table = platforms.flatMap((p) => routesOf(p).map((r) => ({ platform: p, route: r, pattern: compile(`/${p.name}${r.path}`) })));
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://sandbox');
        const raw = Buffer.concat(chunks);
        if (url.pathname.startsWith('/_sandbox/')) return send(res, control(url, req.method ?? 'GET', parseBody(raw, 'application/json'), state));
        const match = table.find((t) => t.route.method === req.method && t.pattern.test(url.pathname));
        if (!match) return send(res, { status: 404, body: { error: `sandbox: no route ${req.method} ${url.pathname}` } });
        if (state.latencyMs) await new Promise((r) => setTimeout(r, state.latencyMs));
        // A token the sandbox's authorization server issued names its account while it lives; `sandbox-<account>` always does.
        const bearer = TOKEN.exec(req.headers.authorization ?? '')?.[1];
        const queryToken = url.searchParams.get('access_token') ?? undefined;
        const issued = [bearer, queryToken].map((t) => (t ? state.oauth.accountOf(match.platform.name, t) : undefined)).find((a) => a !== undefined);
        const account =
          issued === 'expired'
            ? undefined
            : (issued ?? (bearer?.startsWith('sandbox-') ? bearer.slice('sandbox-'.length) : undefined) ?? queryToken?.replace(/^sandbox-/, '') ?? url.pathname.match(/\/botsandbox-([^/]+)\//)?.[1]);
        state.requests.push({ platform: match.platform.name, method: req.method ?? 'GET', path: url.pathname, creates: match.route.creates === true, account, at: new Date() });
        if (match.route.auth !== false && !account) return send(res, match.platform.unauthorized());
        const sreq: SandboxRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          params: { ...(match.pattern.exec(url.pathname)?.groups ?? {}) },
          query: url.searchParams,
          headers: req.headers,
          body: parseBody(raw, req.headers['content-type']),
          raw,
          account,
        };
        const fault = match.route.creates ? state.takeFault(match.platform.name, 'create', account) : match.route.metrics ? state.takeFault(match.platform.name, 'metrics', account) : undefined;
        const early = fault ? faultAnswer(fault, match.platform) : undefined;
        if (early === 'hang') {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        if (early) return send(res, early);
        const answer = await handle(match.route, sreq, state);
        if (fault === 'drop_after_accept') return req.socket.destroy();
        send(res, answer);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://${host}:${address.port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(route: Route, req: SandboxRequest, state: SandboxState): Promise<SandboxResponse> {
  try {
    return await route.handle(req, state);
  } catch (err) {
    return { status: 400, body: { error: `sandbox: ${(err as Error).message}` } };
  }
}

/**
 * OAuth controls: `POST /_sandbox/oauth/expire {platform?, keep_newest?}` expires live expiring access tokens now (all but each account's newest);
 * `POST /_sandbox/oauth/refuse {platform, answer: invalid_grant|checkpoint|server_error|rate_limited, times}`
 * refuses the next refreshes; `POST /_sandbox/oauth/ttl {seconds}` sets new access tokens' lifetime;
 * `GET /_sandbox/oauth/refreshes` lists the refreshes honoured.
 */
function oauthControl(url: URL, method: string, body: unknown, state: SandboxState): SandboxResponse | undefined {
  const b = (body ?? {}) as { platform?: string; answer?: RefreshRefusal; times?: number; seconds?: number; keep_newest?: boolean };
  if (method === 'POST' && url.pathname === '/_sandbox/oauth/expire') {
    return { status: 200, body: { expired: state.oauth.expire(b.platform, b.keep_newest === true) } };
  }
  if (method === 'POST' && url.pathname === '/_sandbox/oauth/refuse' && b.platform && b.answer) {
    state.oauth.addRefusal(b.platform, b.answer, b.times ?? 1);
    return { status: 204 };
  }
  if (method === 'POST' && url.pathname === '/_sandbox/oauth/ttl' && typeof b.seconds === 'number') {
    state.oauth.accessTtlSeconds = b.seconds;
    return { status: 204 };
  }
  if (method === 'GET' && url.pathname === '/_sandbox/oauth/refreshes') return { status: 200, body: { refreshes: state.oauth.refreshes } };
  return undefined;
}

function control(url: URL, method: string, body: unknown, state: SandboxState): SandboxResponse {
  const b = (body ?? {}) as { platform?: string; fault?: Fault; times?: number; ms?: number; on?: FaultTarget; per_minute?: number; account?: string };
  if (method === 'POST' && url.pathname === '/_sandbox/faults' && b.platform && b.fault) {
    state.addFault(b.platform, b.fault, b.times ?? 1, b.on === 'metrics' ? 'metrics' : 'create', typeof b.account === 'string' ? b.account : undefined);
    return { status: 204 };
  }
  if (method === 'GET' && url.pathname === '/_sandbox/post_counts') {
    const counts: Record<string, number> = {};
    for (const post of state.posts) counts[post.platform] = (counts[post.platform] ?? 0) + 1;
    return { status: 200, body: { counts } };
  }
  if (method === 'GET' && url.pathname === '/_sandbox/posts') {
    const platform = url.searchParams.get('platform');
    return { status: 200, body: { posts: platform ? state.postsOf(platform) : state.posts } };
  }
  if (method === 'GET' && url.pathname === '/_sandbox/requests') {
    const platform = url.searchParams.get('platform');
    return { status: 200, body: { requests: state.requests.filter((r) => !platform || r.platform === platform) } };
  }
  if (method === 'POST' && url.pathname === '/_sandbox/latency') {
    state.latencyMs = Number(b.ms ?? 0);
    return { status: 204 };
  }
  if (method === 'POST' && url.pathname === '/_sandbox/telegram/chats') {
    const c = (body ?? {}) as Partial<TelegramChat>;
    if (typeof c.id !== 'number' || !c.type || !c.title) return { status: 400, body: { error: 'sandbox: a chat needs id, type and title' } };
    const chat: TelegramChat = { id: c.id, type: c.type, title: c.title, username: c.username, bot_status: c.bot_status ?? 'administrator', can_post_messages: c.can_post_messages ?? true };
    state.telegramChats.set(String(chat.id), chat);
    if (chat.username) state.telegramChats.set(`@${chat.username}`, chat);
    return { status: 204 };
  }
  const oauth = oauthControl(url, method, body, state);
  if (oauth) return oauth;
  if (method === 'POST' && url.pathname === '/_sandbox/metrics_growth') {
    state.metricsGrowthPerMinute = Number(b.per_minute ?? 0);
    return { status: 204 };
  }
  if (method === 'POST' && url.pathname === '/_sandbox/reset') {
    state.reset();
    return { status: 204 };
  }
  return { status: 404, body: { error: 'sandbox: unknown control endpoint' } };
}
