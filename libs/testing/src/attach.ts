import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { createClient, type PromiseClient } from '@spa/grpc';
import { request, type HttpOptions, type HttpResponse } from './http.js';
import { runAdmin, startProcess, type RunningProcess } from './processes.js';

export interface Stack {
  baseUrl: string;
  accountsAddr: string;
  postsAddr: string;
  mediaAddr: string;
  /** The media service's HTTP server (reads and presigned PUTs; the gateway relays /media/... to it). */
  mediaHttpUrl: string;
  /** Where the media service keeps files (local-disk storage) and stages uploads for this stack. */
  mediaDir: string;
  generationAddr: string;
  processes: RunningProcess[];
  /** Direct gRPC access to accounts (setup in tests; the CLI has its own tests). */
  accounts: PromiseClient<AccountsServiceClient>;
  /** The platform sandbox, when started with `publishing: true` (the publisher then calls it for every platform). */
  sandboxUrl: string | undefined;
  /** A request to the gateway; `path` is absolute (e.g. /healthz). */
  http(path: string, opts?: HttpOptions): Promise<HttpResponse>;
  /** A request to /api/v1 + path. */
  api(path: string, opts?: HttpOptions): Promise<HttpResponse>;
  /** Starts one more gateway against the same services (and, by default, the same Redis prefix). */
  startGateway(env?: Record<string, string>): Promise<RunningProcess>;
  /** Starts one more posts replica (scheduler and recycler included) on the same database; `env` adds to its environment. */
  startPosts(env?: Record<string, string>): Promise<RunningProcess>;
  /** Starts one more publisher on the same database and job namespace (stack started with `publishing: true`). */
  startPublisher(): Promise<RunningProcess>;
  /** The image-week service (Quote Week). */
  imageWeekAddr: string;
  /** Starts one more image-week replica on the same database and job namespace. */
  startImageWeek(env?: Record<string, string>): Promise<RunningProcess>;
  /** The analytics service (metric snapshots, timeseries, rollups, best times). */
  analyticsAddr: string;
  /** JOBS_NAMESPACE of this stack's processes (names its publish and metric jobs). */
  jobsNamespace: string;
  /** The webhooks service, when started with `webhooks: true`. */
  webhooksAddr: string | undefined;
  /** Where the stack's processes are reached, and its databases: enough for another process to attach to it (attachStack). */
  addresses: StackAddresses;
  /** Starts one more analytics replica on the same database and namespace. */
  startAnalytics(): Promise<RunningProcess>;
  admin(args: string[]): ReturnType<typeof runAdmin>;
  stop(): Promise<void>;
}

/**
 * Where a running stack's processes are reached, its databases and namespaces: plain data, so that a stack
 * started in one process (vitest's globalSetup) serves test files in others (attachStack).
 */
export interface StackAddresses {
  baseUrl: string;
  accountsAddr: string;
  postsAddr: string;
  mediaAddr: string;
  mediaHttpUrl: string;
  mediaDir: string;
  generationAddr: string;
  imageWeekAddr: string;
  analyticsAddr: string;
  webhooksAddr: string | undefined;
  sandboxUrl: string | undefined;
  jobsNamespace: string;
  /** The MONGO_DB of each service, for tests that read what a service stored. */
  databases: { accounts: string; posts: string; publisher: string; media: string; generation: string; imageWeek: string; analytics: string; webhooks?: string };
  /** The environment of the stack's gateway: one more gateway started with it serves the same services (HTTP_PORT aside). */
  gatewayEnv: Record<string, string>;
}

/** What a stack does beyond speaking to its processes: start more of them, and stop. */
export type StackControl = Pick<Stack, 'processes' | 'startGateway' | 'startPosts' | 'startPublisher' | 'startImageWeek' | 'startAnalytics' | 'stop'>;

/**
 * A Stack speaking to the processes at `a` (gRPC client to accounts, HTTP to the gateway, the admin CLI); `control` starts
 * and stops. `localAddress`: the client address of requests that name none (default: the system's, 127.0.0.1).
 */
export function stackOf(a: StackAddresses, control: StackControl, localAddress?: string): Stack {
  const accounts = createClient(AccountsServiceClient, a.accountsAddr);
  const webhooksEnv: Record<string, string> = a.webhooksAddr ? { WEBHOOKS_ADDR: a.webhooksAddr } : {};
  return {
    ...control,
    baseUrl: a.baseUrl,
    accountsAddr: a.accountsAddr,
    postsAddr: a.postsAddr,
    mediaAddr: a.mediaAddr,
    mediaHttpUrl: a.mediaHttpUrl,
    mediaDir: a.mediaDir,
    generationAddr: a.generationAddr,
    imageWeekAddr: a.imageWeekAddr,
    analyticsAddr: a.analyticsAddr,
    webhooksAddr: a.webhooksAddr,
    sandboxUrl: a.sandboxUrl,
    jobsNamespace: a.jobsNamespace,
    addresses: a,
    accounts,
    http: (path, o) => request(a.baseUrl, path, { ...o, localAddress: o?.localAddress ?? localAddress }),
    api: (path, o) => request(a.baseUrl, `/api/v1${path}`, { ...o, localAddress: o?.localAddress ?? localAddress }),
    admin: (args) => runAdmin(args, { ACCOUNTS_ADDR: a.accountsAddr, ...webhooksEnv }),
    stop: async () => {
      accounts.close();
      await control.stop();
    },
  };
}

/**
 * A Stack for a stack that another process started and keeps (vitest's globalSetup starts one that many test files
 * share). It speaks to the same processes and may start gateways of its own (they stop with it), but it adds no
 * replica to the shared services and stops none of them: a test that adds replicas, kills a process or needs
 * settings of its own starts a stack of its own (startStack). Its requests that name no client address come from
 * `localAddress` (a file sharing a gateway passes one of its own, so that the per-address limits stay its own).
 */
export function attachStack(a: StackAddresses, localAddress?: string): Stack {
  const processes: RunningProcess[] = [];
  const notShared = (what: string) => () => Promise.reject(new Error(`${what}: a shared stack's services get no replicas from one test file; start a stack of its own (startStack)`));
  return stackOf(
    a,
    {
      processes,
      startGateway: async (env = {}) => {
        const gw = await startProcess('gateway', 'gateway/dist/main.js', { HTTP_PORT: '0', ...a.gatewayEnv, ...env });
        processes.push(gw);
        return gw;
      },
      startPosts: notShared('startPosts'),
      startPublisher: notShared('startPublisher'),
      startImageWeek: notShared('startImageWeek'),
      startAnalytics: notShared('startAnalytics'),
      stop: async () => {
        await Promise.all(processes.map((p) => p.stop()));
      },
    },
    localAddress,
  );
}
