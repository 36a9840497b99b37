import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OAUTH_PLATFORMS, clientEnvNames } from '@spa/platforms';
import { postListVersionPrefix } from '@spa/redis';
import { deleteConsumer, dropDatabases, purgeEvents, TEST_INFRA, uniqueName } from './infra.js';
import { stackOf, type Stack, type StackAddresses } from './attach.js';
import { startProcess, stopStartedOnFailure, type RunningProcess } from './processes.js';

/** The encryption key of test stacks (never a production value). */
export const TEST_SECRETS_KEY = 'test-only-secrets-key-0123456789abcdef';

export interface StackOptions {
  gatewayEnv?: Record<string, string>;
  /** Extra environment of the media service (e.g. S3 storage settings). */
  mediaEnv?: Record<string, string>;
  /** Extra environment of the generation service (e.g. an OpenAI-compatible provider). */
  generationEnv?: Record<string, string>;
  /** Extra environment of the first posts process (e.g. RECYCLER_ENABLED=false). */
  postsEnv?: Record<string, string>;
  /** Extra environment of the accounts service (e.g. token refresh timing). */
  accountsEnv?: Record<string, string>;
  publishing?: boolean;
  /** Extra environment of every service process (e.g. an OTLP endpoint). */
  serviceEnv?: Record<string, string>;
  /** Starts the webhooks service too (the dashboard's webhook pages; any receiver address allowed). */
  webhooks?: boolean;
  /** Extra environment of the image-week service (e.g. a test template set). */
  imageWeekEnv?: Record<string, string>;
  /** Extra environment of the analytics service (e.g. its fetch schedule). */
  analyticsEnv?: Record<string, string>;
  /** Extra environment of the first publisher (e.g. a known METRICS_PORT). */
  publisherEnv?: Record<string, string>;
}

/** Accounts settings that connect every OAuth platform through the sandbox (its clients are `sandbox-<platform>` / `sandbox-secret`). */
export function sandboxOAuthEnv(sandboxUrl: string, callbackBaseUrl: string): Record<string, string> {
  const env: Record<string, string> = { SANDBOX_URL: sandboxUrl, OAUTH_CALLBACK_BASE_URL: callbackBaseUrl };
  for (const facts of Object.values(OAUTH_PLATFORMS)) {
    if (facts.perInstance) continue;
    const names = clientEnvNames(facts.platform);
    env[names.id] = `sandbox-${facts.platform}`;
    env[names.secret] = 'sandbox-secret';
  }
  return env;
}

/** The lowest port the kernel hands out for port 0 and outgoing connections (Linux; 32768 elsewhere). */
export function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

/** Ports this process has handed out: never handed out twice. */
const handedOut = new Set<number>();
/** Test workers whose port slices are disjoint (vitest's VITEST_POOL_ID runs from 1 to maxWorkers). */
const PORT_SLICES = 8;

/** The ports `freePort` picks from in test worker `worker`: 1/8 of 10,000 up to the ephemeral range, disjoint per worker mod 8. */
export function portSlice(worker: number, ephemeralLow: number): { low: number; size: number } {
  const size = Math.floor((Math.min(ephemeralLow, 65_536) - 10_000) / PORT_SLICES);
  return { low: 10_000 + (worker % PORT_SLICES) * size, size };
}

/**
 * A free TCP port on 127.0.0.1, for a process whose address another one needs before it starts. It is
 * picked at random below the ephemeral range, so that no process binding port 0 meanwhile (every other
 * service of every stack) can take it before its owner starts, and within this test worker's own slice of
 * that range: a port picked by one worker and not yet bound (a stack's gateway starts seconds after its port
 * is picked) is never picked by another (with one range for all, by estimate one suite run in ten collided).
 */
export async function freePort(): Promise<number> {
  const { low, size } = portSlice(Number(process.env.VITEST_POOL_ID) || process.pid, ephemeralLow());
  for (;;) {
    const port = low + Math.floor(Math.random() * size);
    if (handedOut.has(port)) continue;
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => server.close(resolve));
      handedOut.add(port);
      return port;
    }
  }
}

/**
 * Starts accounts, posts, media, generation and a gateway (plus the sandbox and a publisher with
 * `publishing: true`) as real processes on free ports, with fresh databases and a fresh rate-limit
 * prefix, against the real MongoDB-compatible store, NATS and Redis.
 */
export function startStack(opts: StackOptions = {}): Promise<Stack> {
  return stopStartedOnFailure(() => launchStack(opts));
}

/**
 * Starts the processes at once and waits for every one: all of them, in the order given, once each is ready; else
 * the first failure (the caller stops the ones that started). On two loaded cores ten processes starting together
 * take longer each than one alone: 90 s each (or TEST_PROCESS_READY_MS).
 */
async function startAll(list: Array<[string, string, Record<string, string>]>): Promise<RunningProcess[]> {
  const readyMs = Number(process.env.TEST_PROCESS_READY_MS) || 90_000;
  const settled = await Promise.allSettled(list.map(([name, script, env]) => startProcess(name, script, env, readyMs)));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<RunningProcess>).value);
}

async function launchStack(opts: StackOptions): Promise<Stack> {
  const accountsDb = uniqueName('t_accounts');
  const postsDb = uniqueName('t_posts');
  const publisherDb = uniqueName('t_publisher');
  const mediaDb = uniqueName('t_media');
  const generationDb = uniqueName('t_generation');
  const imageWeekDb = uniqueName('t_image_week');
  const analyticsDb = uniqueName('t_analytics');
  const webhooksDb = uniqueName('t_webhooks');
  const webhooksConsumer = uniqueName('t_webhooks_consumer');
  const rateLimitPrefix = uniqueName('t_rl');
  // A stack's ten processes mostly sit idle beside other stacks: the event-loop lag is sampled once a second, not every 20 ms.
  const quiet = { METRICS_EVENT_LOOP_RESOLUTION_MS: '1000' };
  const common = { MONGO_URL: TEST_INFRA.mongoUrl, NATS_URL: TEST_INFRA.natsUrl, GRPC_PORT: '0', JOBS_NAMESPACE: uniqueName('jobs'), ...quiet, ...opts.serviceEnv };
  // The first process of each service gets its port before any starts, so that all start at once (none calls another
  // while it starts; each calls the others by these addresses). The gateway's port is also where media answers public
  // URLs (its /media relay) and where OAuth callbacks come back.
  const ports = { gateway: 0, sandbox: 0, accounts: 0, posts: 0, analytics: 0, media: 0, generation: 0, imageWeek: 0, publisher: 0, webhooks: 0 };
  for (const name of Object.keys(ports) as Array<keyof typeof ports>) ports[name] = await freePort();
  const at = (port: number) => `127.0.0.1:${port}`;
  // With publishing, accounts connects accounts through the sandbox's authorization servers (sandbox clients, callback at the gateway).
  const sandboxUrl = opts.publishing ? `http://${at(ports.sandbox)}` : undefined;
  const oauthEnv: Record<string, string> = sandboxUrl ? sandboxOAuthEnv(sandboxUrl, `http://${at(ports.gateway)}`) : {};
  const mediaBaseUrl = `http://${at(ports.gateway)}/media`;
  const mediaDir = await mkdtemp(path.join(tmpdir(), 'spa-media-'));
  // Media calls the publisher (LinkedIn uploads); the gateway calls the webhooks service.
  const publisherEnv: Record<string, string> = opts.publishing ? { PUBLISHER_ADDR: at(ports.publisher) } : {};
  const webhooksEnv: Record<string, string> = opts.webhooks ? { WEBHOOKS_ADDR: at(ports.webhooks) } : {};
  const services = {
    ACCOUNTS_ADDR: at(ports.accounts),
    POSTS_ADDR: at(ports.posts),
    MEDIA_ADDR: at(ports.media),
    GENERATION_ADDR: at(ports.generation),
    IMAGE_WEEK_ADDR: at(ports.imageWeek),
    ANALYTICS_ADDR: at(ports.analytics),
  };

  const processes: RunningProcess[] = [];
  const started = (proc: RunningProcess) => {
    processes.push(proc);
    return proc;
  };
  const postsEnv = (env: Record<string, string>) => ({
    ...common,
    MONGO_DB: postsDb,
    ACCOUNTS_ADDR: services.ACCOUNTS_ADDR,
    GENERATION_ADDR: services.GENERATION_ADDR,
    // A post due before the scheduler's window (its claim's holder died, say) is found sooner than in production.
    SCHEDULER_FULL_SCAN_INTERVAL_MS: '5000',
    ...env,
  });
  /** Starts one more replica of the posts service (its scheduler and recycler run too). */
  const startPosts = async (env: Record<string, string> = {}) => started(await startProcess('posts', 'services/posts/dist/main.js', postsEnv(env)));
  /** The local schedule fetches metrics seconds after posting. */
  const analyticsEnv = (env: Record<string, string>) => ({
    ...common,
    MONGO_DB: analyticsDb,
    ACCOUNTS_ADDR: services.ACCOUNTS_ADDR,
    POSTS_ADDR: services.POSTS_ADDR,
    METRICS_FETCH_OFFSETS: '2s,6s,15s',
    METRICS_FETCH_JITTER: '0',
    METRICS_SLOT_MS: '500',
    METRICS_DISPATCH_INTERVAL_MS: '250',
    METRICS_RESULT_ACK_WAIT_MS: '5000',
    // Dub's stand-in; short links are made for workspaces that turn link shortening on (their preferences).
    ...(sandboxUrl ? { DUB_BASE_URL: `${sandboxUrl}/dub` } : {}),
    ...opts.analyticsEnv,
    ...env,
  });
  /** Starts one more analytics replica. */
  const startAnalytics = async () => started(await startProcess('analytics', 'services/analytics/dist/main.js', analyticsEnv({})));
  const imageWeekEnv = (env: Record<string, string>) => ({
    ...common,
    MONGO_DB: imageWeekDb,
    ACCOUNTS_ADDR: services.ACCOUNTS_ADDR,
    POSTS_ADDR: services.POSTS_ADDR,
    MEDIA_ADDR: services.MEDIA_ADDR,
    GENERATION_ADDR: services.GENERATION_ADDR,
    // A dead replica's work is taken over sooner than in production.
    IMAGE_WEEK_LEASE_MS: '6000',
    IMAGE_WEEK_JOB_ACK_WAIT_MS: '5000',
    IMAGE_WEEK_STALE_MS: '15000',
    IMAGE_WEEK_SWEEP_INTERVAL_MS: '3000',
    // Most stacks render no card: their OCR workers (4-5 s of CPU) start at the first one.
    IMAGE_WEEK_OCR_WARM: 'false',
    ...opts.imageWeekEnv,
    ...env,
  });
  /** Starts one more image-week replica on the same database and job namespace. */
  const startImageWeek = async (env: Record<string, string> = {}) => started(await startProcess('image-week', 'services/image-week/dist/main.js', imageWeekEnv(env)));
  const publisherEnvOf = (env: Record<string, string>) => ({
    ...common,
    MONGO_DB: publisherDb,
    ACCOUNTS_ADDR: services.ACCOUNTS_ADDR,
    POSTS_ADDR: services.POSTS_ADDR,
    MEDIA_ADDR: services.MEDIA_ADDR,
    ANALYTICS_ADDR: services.ANALYTICS_ADDR,
    SANDBOX_URL: sandboxUrl ?? '',
    MEDIA_BASE_URL: mediaBaseUrl,
    // Sandbox calls are fast: a dead publisher's work is taken over sooner than in production.
    PUBLISH_ATTEMPT_LEASE_MS: '8000',
    PUBLISH_JOB_ACK_WAIT_MS: '5000',
    METRICS_JOB_ACK_WAIT_MS: '5000',
    ...env,
  });
  /** Starts one more publisher (needs `publishing: true`). */
  const startPublisher = async () => {
    if (!sandboxUrl) throw new Error('start the stack with publishing: true');
    return started(await startProcess('publisher', 'services/publisher/dist/main.js', publisherEnvOf({})));
  };

  // The first process of each service, all at once, listed in `processes` in this order whichever is ready first.
  const port = (name: keyof typeof ports) => ({ GRPC_PORT: String(ports[name]) });
  const first: Array<[string, string, Record<string, string>] | undefined> = [
    sandboxUrl ? ['sandbox', 'tools/sandbox/dist/main.js', { SANDBOX_PORT: String(ports.sandbox) }] : undefined,
    ['accounts', 'services/accounts/dist/main.js', { ...common, ...port('accounts'), MONGO_DB: accountsDb, SECRETS_KEY: TEST_SECRETS_KEY, ...oauthEnv, ...opts.accountsEnv }],
    ['posts', 'services/posts/dist/main.js', postsEnv({ ...port('posts'), ...opts.postsEnv })],
    ['analytics', 'services/analytics/dist/main.js', analyticsEnv(port('analytics'))],
    [
      'media',
      'services/media/dist/main.js',
      {
        ...common,
        ...port('media'),
        MONGO_DB: mediaDb,
        ACCOUNTS_ADDR: services.ACCOUNTS_ADDR,
        ...publisherEnv,
        MEDIA_HTTP_PORT: '0',
        MEDIA_SIGNING_KEY: TEST_SECRETS_KEY,
        MEDIA_PUBLIC_BASE_URL: mediaBaseUrl,
        MEDIA_LOCAL_DIR: path.join(mediaDir, 'objects'),
        MEDIA_STAGING_DIR: path.join(mediaDir, 'staging'),
        ...opts.mediaEnv,
      },
    ],
    [
      'generation',
      'services/generation/dist/main.js',
      {
        ...common,
        ...port('generation'),
        MONGO_DB: generationDb,
        ACCOUNTS_ADDR: services.ACCOUNTS_ADDR,
        POSTS_ADDR: services.POSTS_ADDR,
        MEDIA_ADDR: services.MEDIA_ADDR,
        IMAGE_WEEK_ADDR: services.IMAGE_WEEK_ADDR,
        ...opts.generationEnv,
      },
    ],
    ['image-week', 'services/image-week/dist/main.js', imageWeekEnv(port('imageWeek'))],
    sandboxUrl ? ['publisher', 'services/publisher/dist/main.js', publisherEnvOf({ ...port('publisher'), ...opts.publisherEnv })] : undefined,
    opts.webhooks
      ? [
          'webhooks',
          'services/webhooks/dist/main.js',
          {
            ...common,
            ...port('webhooks'),
            MONGO_DB: webhooksDb,
            SECRETS_KEY: TEST_SECRETS_KEY,
            WEBHOOKS_ALLOW_PRIVATE: 'true',
            WEBHOOKS_CONSUMER: webhooksConsumer,
            WEBHOOKS_POLL_INTERVAL_MS: '200',
          },
        ]
      : undefined,
  ];
  for (const proc of await startAll(first.filter((p) => p !== undefined))) started(proc);
  const mediaProc = processes.find((p) => p.name === 'media')!;
  const mediaHttpUrl = `http://${/READY grpc=\S+ http=(\S+)/.exec(mediaProc.output())?.[1] ?? ''}`;
  const gatewayEnv: Record<string, string> = {
    ...quiet,
    MEDIA_HTTP_URL: mediaHttpUrl,
    REDIS_URL: TEST_INFRA.redisUrl,
    ...services,
    POSTS_LIST_VERSION_PREFIX: postListVersionPrefix(postsDb),
    RATE_LIMIT_PREFIX: rateLimitPrefix,
    ...webhooksEnv,
    ...publisherEnv,
    ...opts.gatewayEnv,
  };
  let firstGatewayPort: number | undefined = ports.gateway;
  const startGateway = async (env: Record<string, string> = {}) => {
    const gatewayPort = String(firstGatewayPort ?? 0);
    firstGatewayPort = undefined;
    return started(await startProcess('gateway', 'gateway/dist/main.js', { HTTP_PORT: gatewayPort, ...gatewayEnv, ...env }));
  };
  const gateway = await startGateway();
  const databases = {
    accounts: accountsDb,
    posts: postsDb,
    publisher: publisherDb,
    media: mediaDb,
    generation: generationDb,
    imageWeek: imageWeekDb,
    analytics: analyticsDb,
    ...(opts.webhooks ? { webhooks: webhooksDb } : {}),
  };
  const addresses: StackAddresses = {
    baseUrl: `http://${gateway.address}`,
    accountsAddr: services.ACCOUNTS_ADDR,
    postsAddr: services.POSTS_ADDR,
    mediaAddr: services.MEDIA_ADDR,
    mediaHttpUrl,
    mediaDir,
    generationAddr: services.GENERATION_ADDR,
    imageWeekAddr: services.IMAGE_WEEK_ADDR,
    analyticsAddr: services.ANALYTICS_ADDR,
    webhooksAddr: opts.webhooks ? at(ports.webhooks) : undefined,
    sandboxUrl,
    jobsNamespace: common.JOBS_NAMESPACE,
    // What a test reads is the MONGO_DB the service was given (a test may name a database of its own).
    databases: {
      ...databases,
      accounts: opts.accountsEnv?.MONGO_DB ?? accountsDb,
      generation: opts.generationEnv?.MONGO_DB ?? generationDb,
    },
    gatewayEnv,
  };
  return stackOf(addresses, {
    processes,
    startGateway,
    startPosts,
    startPublisher,
    startImageWeek,
    startAnalytics,
    stop: async () => {
      await Promise.all(processes.map((p) => p.stop()));
      await dropDatabases(Object.values(databases));
      if (opts.webhooks) await deleteConsumer('POSTS', webhooksConsumer);
      // The stack's public events (every owner publishes them) and the webhooks service's consumer of them.
      if (opts.webhooks) await deleteConsumer('EVENTS', `webhooks-events-${common.JOBS_NAMESPACE}`);
      await purgeEvents(common.JOBS_NAMESPACE);
      // Posts' evergreen recycler: its durable consumer gets every stack's terminal events; gone with the stack.
      await deleteConsumer('POSTS', `posts-recycler-${common.JOBS_NAMESPACE}`);
      await rm(mediaDir, { recursive: true, force: true });
    },
  });
}

export interface TestWorkspace {
  workspaceId: number;
  ownerUserId: number;
  apiKey: string;
}

/** Creates a workspace of the given plan with an API key (all scopes unless given). */
export async function createWorkspace(stack: Stack, opts: { tier?: string; status?: string; scopes?: string[]; reviewRequired?: boolean } = {}): Promise<TestWorkspace> {
  const ws = await stack.accounts.createWorkspace({ name: uniqueName('ws'), tier: opts.tier ?? 'pro', subscriptionStatus: opts.status ?? 'active' });
  if (opts.reviewRequired) await stack.accounts.setReviewRequired({ workspaceId: ws.workspaceId, required: true });
  const key = await stack.accounts.createApiKey({ workspaceId: ws.workspaceId, scopes: opts.scopes ?? ['all'] });
  return { workspaceId: ws.workspaceId, ownerUserId: ws.ownerUserId, apiKey: key.apiKey };
}
