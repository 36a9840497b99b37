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

async function launchStack(opts: StackOptions): Promise<Stack> {
  const accountsDb = uniqueName('t_accounts');
  const postsDb = uniqueName('t_posts');
  const publisherDb = uniqueName('t_publisher');
  const mediaDb = uniqueName('t_media');
  const generationDb = uniqueName('t_generation');
  const imageWeekDb = uniqueName('t_image_week');
  const rateLimitPrefix = uniqueName('t_rl');
  // A stack's ten processes mostly sit idle beside other stacks: the event-loop lag is sampled once a second, not every 20 ms.
  const quiet = { METRICS_EVENT_LOOP_RESOLUTION_MS: '1000' };
  const common = { MONGO_URL: TEST_INFRA.mongoUrl, NATS_URL: TEST_INFRA.natsUrl, GRPC_PORT: '0', JOBS_NAMESPACE: uniqueName('jobs'), ...quiet, ...opts.serviceEnv };
  // Media answers public URLs under the first gateway's /media relay, and OAuth callbacks come back to it: that gateway gets this port.
  const gatewayPort = await freePort();
  // With publishing, accounts connects accounts through the sandbox's authorization servers (sandbox clients, callback at the gateway).
  const sandboxProc = opts.publishing ? await startProcess('sandbox', 'tools/sandbox/dist/main.js', { SANDBOX_PORT: '0' }) : undefined;
  const oauthEnv: Record<string, string> = sandboxProc ? sandboxOAuthEnv(`http://${sandboxProc.address}`, `http://127.0.0.1:${gatewayPort}`) : {};
  const accountsProc = await startProcess('accounts', 'services/accounts/dist/main.js', { ...common, MONGO_DB: accountsDb, SECRETS_KEY: TEST_SECRETS_KEY, ...oauthEnv, ...opts.accountsEnv });
  const processes: RunningProcess[] = [...(sandboxProc ? [sandboxProc] : []), accountsProc];
  // Posts calls generation (evergreen wordings), which starts later and calls posts: generation gets this port.
  const generationPort = await freePort();
  /** Starts one more replica of the posts service (its scheduler and recycler run too). */
  const startPosts = async (env: Record<string, string> = {}) => {
    const proc = await startProcess('posts', 'services/posts/dist/main.js', {
      ...common,
      MONGO_DB: postsDb,
      ACCOUNTS_ADDR: accountsProc.address,
      GENERATION_ADDR: `127.0.0.1:${generationPort}`,
      // A post due before the scheduler's window (its claim's holder died, say) is found sooner than in production.
      SCHEDULER_FULL_SCAN_INTERVAL_MS: '5000',
      ...env,
    });
    processes.push(proc);
    return proc;
  };
  const postsProc = await startPosts(opts.postsEnv);
  const analyticsDb = uniqueName('t_analytics');
  /** Starts one more analytics replica; the local schedule fetches metrics seconds after posting. */
  const startAnalytics = async () => {
    const proc = await startProcess('analytics', 'services/analytics/dist/main.js', {
      ...common,
      MONGO_DB: analyticsDb,
      ACCOUNTS_ADDR: accountsProc.address,
      POSTS_ADDR: postsProc.address,
      METRICS_FETCH_OFFSETS: '2s,6s,15s',
      METRICS_FETCH_JITTER: '0',
      METRICS_SLOT_MS: '500',
      METRICS_DISPATCH_INTERVAL_MS: '250',
      METRICS_RESULT_ACK_WAIT_MS: '5000',
      // Dub's stand-in; short links are made for workspaces that turn link shortening on (their preferences).
      ...(sandboxProc ? { DUB_BASE_URL: `http://${sandboxProc.address}/dub` } : {}),
      ...opts.analyticsEnv,
    });
    processes.push(proc);
    return proc;
  };
  const analyticsProc = await startAnalytics();
  // Media calls the publisher (LinkedIn uploads), which starts later: the first publisher gets this port.
  const publisherPort = opts.publishing ? String(await freePort()) : undefined;
  const publisherEnv: Record<string, string> = publisherPort ? { PUBLISHER_ADDR: `127.0.0.1:${publisherPort}` } : {};
  const mediaBaseUrl = `http://127.0.0.1:${gatewayPort}/media`;
  const mediaDir = await mkdtemp(path.join(tmpdir(), 'spa-media-'));
  const mediaProc = await startProcess('media', 'services/media/dist/main.js', {
    ...common,
    MONGO_DB: mediaDb,
    ACCOUNTS_ADDR: accountsProc.address,
    ...publisherEnv,
    MEDIA_HTTP_PORT: '0',
    MEDIA_SIGNING_KEY: TEST_SECRETS_KEY,
    MEDIA_PUBLIC_BASE_URL: mediaBaseUrl,
    MEDIA_LOCAL_DIR: path.join(mediaDir, 'objects'),
    MEDIA_STAGING_DIR: path.join(mediaDir, 'staging'),
    ...opts.mediaEnv,
  });
  processes.push(mediaProc);
  const mediaHttpUrl = `http://${/READY grpc=\S+ http=(\S+)/.exec(mediaProc.output())?.[1] ?? ''}`;
  // Generation calls image-week (content plans' Quote Week runs), which starts later and calls generation: the first image-week gets this port.
  const imageWeekPort = await freePort();
  const generationProc = await startProcess('generation', 'services/generation/dist/main.js', {
    ...common,
    GRPC_PORT: String(generationPort),
    MONGO_DB: generationDb,
    ACCOUNTS_ADDR: accountsProc.address,
    POSTS_ADDR: postsProc.address,
    MEDIA_ADDR: mediaProc.address,
    IMAGE_WEEK_ADDR: `127.0.0.1:${imageWeekPort}`,
    ...opts.generationEnv,
  });
  processes.push(generationProc);
  const startImageWeek = async (env: Record<string, string> = {}) => {
    const proc = await startProcess('image-week', 'services/image-week/dist/main.js', {
      ...common,
      MONGO_DB: imageWeekDb,
      ACCOUNTS_ADDR: accountsProc.address,
      POSTS_ADDR: postsProc.address,
      MEDIA_ADDR: mediaProc.address,
      GENERATION_ADDR: generationProc.address,
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
    processes.push(proc);
    return proc;
  };
  const imageWeekProc = await startImageWeek({ GRPC_PORT: String(imageWeekPort) });
  let sandboxUrl: string | undefined;
  /** Starts one more publisher (needs `publishing: true`). */
  const startPublisher = async (grpcPort = '0', extraEnv: Record<string, string> = {}) => {
    if (!sandboxUrl) throw new Error('start the stack with publishing: true');
    const proc = await startProcess('publisher', 'services/publisher/dist/main.js', {
      ...common,
      GRPC_PORT: grpcPort,
      MONGO_DB: publisherDb,
      ACCOUNTS_ADDR: accountsProc.address,
      POSTS_ADDR: postsProc.address,
      MEDIA_ADDR: mediaProc.address,
      ANALYTICS_ADDR: analyticsProc.address,
      SANDBOX_URL: sandboxUrl,
      MEDIA_BASE_URL: mediaBaseUrl,
      // Sandbox calls are fast: a dead publisher's work is taken over sooner than in production.
      PUBLISH_ATTEMPT_LEASE_MS: '8000',
      PUBLISH_JOB_ACK_WAIT_MS: '5000',
      METRICS_JOB_ACK_WAIT_MS: '5000',
      ...extraEnv,
    });
    processes.push(proc);
    return proc;
  };
  if (sandboxProc) {
    sandboxUrl = `http://${sandboxProc.address}`;
    await startPublisher(publisherPort, opts.publisherEnv);
  }
  const webhooksDb = uniqueName('t_webhooks');
  const webhooksConsumer = uniqueName('t_webhooks_consumer');
  const webhooksProc = opts.webhooks
    ? await startProcess('webhooks', 'services/webhooks/dist/main.js', {
        ...common,
        MONGO_DB: webhooksDb,
        SECRETS_KEY: TEST_SECRETS_KEY,
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_CONSUMER: webhooksConsumer,
        WEBHOOKS_POLL_INTERVAL_MS: '200',
      })
    : undefined;
  if (webhooksProc) processes.push(webhooksProc);
  const webhooksEnv: Record<string, string> = webhooksProc ? { WEBHOOKS_ADDR: webhooksProc.address } : {};
  const gatewayEnv: Record<string, string> = {
    ...quiet,
    MEDIA_HTTP_URL: mediaHttpUrl,
    REDIS_URL: TEST_INFRA.redisUrl,
    ACCOUNTS_ADDR: accountsProc.address,
    POSTS_ADDR: postsProc.address,
    POSTS_LIST_VERSION_PREFIX: postListVersionPrefix(postsDb),
    MEDIA_ADDR: mediaProc.address,
    GENERATION_ADDR: generationProc.address,
    IMAGE_WEEK_ADDR: imageWeekProc.address,
    ANALYTICS_ADDR: analyticsProc.address,
    RATE_LIMIT_PREFIX: rateLimitPrefix,
    ...webhooksEnv,
    ...publisherEnv,
    ...opts.gatewayEnv,
  };
  let firstGatewayPort: number | undefined = gatewayPort;
  const startGateway = async (env: Record<string, string> = {}) => {
    const port = String(firstGatewayPort ?? 0);
    firstGatewayPort = undefined;
    const gw = await startProcess('gateway', 'gateway/dist/main.js', { HTTP_PORT: port, ...gatewayEnv, ...env });
    processes.push(gw);
    return gw;
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
    ...(webhooksProc ? { webhooks: webhooksDb } : {}),
  };
  const addresses: StackAddresses = {
    baseUrl: `http://${gateway.address}`,
    accountsAddr: accountsProc.address,
    postsAddr: postsProc.address,
    mediaAddr: mediaProc.address,
    mediaHttpUrl,
    mediaDir,
    generationAddr: generationProc.address,
    imageWeekAddr: imageWeekProc.address,
    analyticsAddr: analyticsProc.address,
    webhooksAddr: webhooksProc?.address,
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
    startPublisher: () => startPublisher(),
    startImageWeek,
    startAnalytics,
    stop: async () => {
      await Promise.all(processes.map((p) => p.stop()));
      await dropDatabases(Object.values(databases));
      if (webhooksProc) await deleteConsumer('POSTS', webhooksConsumer);
      // The stack's public events (every owner publishes them) and the webhooks service's consumer of them.
      if (webhooksProc) await deleteConsumer('EVENTS', `webhooks-events-${common.JOBS_NAMESPACE}`);
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
