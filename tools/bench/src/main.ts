/**
 * `npm run bench`: throughput and latency of the gateway's hot read path against a bare node:http
 * baseline and the direct gRPC call behind it. Prints figures; asserts nothing.
 */
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { createClient } from '@spa/grpc';
import { createWorkspace, freePort, startProcess, startStack, TEST_INFRA, uniqueName, type RunningProcess, type Stack } from '@spa/testing';
import { ClientIps } from './client-ips.js';
import { heapBreakdown, rssBreakdown } from './memory.js';
import { countRedisKeys } from './redis-keys.js';
import { formatFailures, formatLimiterCheck, formatTable, formatTargets, type ReportRow } from './report.js';
import { benchGatewayList, benchHello, benchListPostsGrpc, listPostsPath } from './scenarios.js';
import { describeListPage, seedPosts } from './seed.js';
import { loadSettings, type BenchSettings } from './settings.js';
import { benchPublishing } from './publishing.js';
import { benchWebhooks } from './webhooks.js';
import { cpuPerUnit, cpuSnapshot } from './cpu.js';
import { benchGeneration } from './generation.js';
import { benchMedia } from './media.js';
import { benchMediaConversion } from './media-conversion.js';
import { benchImageWeek } from './image-week.js';
import { benchAnalytics } from './analytics.js';
import { benchLists } from './lists.js';
import { benchListImport } from './list-import.js';
import { benchMcp } from './mcp.js';
import { benchEvents } from './events.js';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);

async function main(): Promise<void> {
  if (wanted('gateway')) await benchGateway();
  if (wanted('webhooks')) await benchWebhooks();
  if (wanted('publishing')) await benchPublishing();
  if (wanted('generation')) await benchGeneration();
  if (wanted('media')) await benchMedia();
  if (wanted('conversion')) await benchMediaConversion();
  if (wanted('image-week')) await benchImageWeek();
  if (wanted('analytics')) await benchAnalytics();
  if (wanted('lists')) await benchLists();
  if (wanted('list-import')) await benchListImport();
  if (wanted('mcp')) await benchMcp();
  if (wanted('events')) await benchEvents();
}

async function benchGateway(): Promise<void> {
  const settings = loadSettings();
  const rateLimitPrefix = uniqueName('bench_rl');
  progress('starting accounts, posts and gateway (TRUST_PROXY=1) and the node:http baseline');
  // BENCH_GATEWAY_CPU_PROF=<dir>: the gateway writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_GATEWAY_CPU_PROF ? ` --cpu-prof --cpu-prof-dir=${process.env.BENCH_GATEWAY_CPU_PROF}` : '';
  progress(`gateway NODE_OPTIONS: ${settings.gatewayNodeOptions}${profile}`);
  // A known operations port: the bench reads the gateway's heap figures from its /metrics.
  const metricsPort = await freePort();
  const stack = await startStack({
    gatewayEnv: { TRUST_PROXY: '1', RATE_LIMIT_PREFIX: rateLimitPrefix, METRICS_PORT: String(metricsPort), NODE_OPTIONS: `${settings.gatewayNodeOptions}${profile}` },
  });
  let hello: RunningProcess | undefined;
  try {
    hello = await startProcess('hello', 'tools/bench/dist/hello-server.js', {});
    await run(settings, stack, hello, rateLimitPrefix, `http://127.0.0.1:${metricsPort}/metrics`);
  } finally {
    await hello?.stop();
    await stack.stop();
  }
}

/** BENCH_ONLY=gateway,webhooks,publishing,media,conversion,generation,image-week,analytics,lists,list-import,mcp,events picks parts; all by default. */
function wanted(part: 'gateway' | 'webhooks' | 'publishing' | 'media' | 'conversion' | 'generation' | 'image-week' | 'analytics' | 'lists' | 'list-import' | 'mcp' | 'events'): boolean {
  const only = process.env.BENCH_ONLY;
  return !only || only.split(',').includes(part);
}

async function run(settings: BenchSettings, stack: Stack, hello: RunningProcess, rateLimitPrefix: string, gatewayMetricsUrl: string): Promise<void> {
  const workspace = await createWorkspace(stack, { tier: 'pro' });
  await seedPosts(stack, workspace.apiKey, settings.seedPosts);
  const pageDescription = await describeListPage(stack, workspace.apiKey, listPostsPath(settings));

  const each = `${settings.warmupS} s warm-up + ${settings.durationS} s, ${settings.connections} concurrent`;
  progress(`node:http hello (${each})`);
  const helloRun = await benchHello(settings, hello.address);

  // CPU of the measured runs: the stack's processes, the infrastructure, and this process (the load generator).
  const cpuOf = () => cpuSnapshot([...stack.processes.map((p) => ({ name: p.name, pid: p.child.pid! })), { name: 'bench (load generator)', pid: process.pid }]);
  progress(`gRPC ListPosts (${each})`);
  const posts = createClient(PostsServiceClient, stack.postsAddr);
  const grpcRun = await benchListPostsGrpc(settings, posts, workspace.workspaceId, cpuOf).finally(() => posts.close());

  const gatewayPid = gatewayProcess(stack).child.pid;
  const gatewayIdle = gatewayPid === undefined ? undefined : await rssBreakdown(gatewayPid);
  const gatewayIdleHeap = await heapBreakdown(gatewayMetricsUrl).catch((err: unknown) => `V8 heap unknown (${String(err)})`);
  progress(`gateway GET /api/v1${listPostsPath(settings)} (${each})`);
  const clientIps = new ClientIps();
  const gatewayRun = await benchGatewayList(settings, stack.baseUrl, workspace.apiKey, clientIps, cpuOf);
  const gatewayRss = gatewayPid === undefined ? undefined : await rssBreakdown(gatewayPid);
  const gatewayHeap = await heapBreakdown(gatewayMetricsUrl).catch((err: unknown) => `V8 heap unknown (${String(err)})`);
  // The same path with the answer cache off (a second gateway on the same services): what each request costs when
  // the workspace's posts changed since the last one (the answer cache misses), the path before the cache.
  progress(`gateway GET /api/v1${listPostsPath(settings)}, answer cache off (${each})`);
  const uncachedGateway = await stack.startGateway({ GATEWAY_ANSWER_CACHE: 'false', METRICS_PORT: '0', NODE_OPTIONS: settings.gatewayNodeOptions });
  const uncachedRun = await benchGatewayList(settings, `http://${uncachedGateway.address}`, workspace.apiKey, clientIps, cpuOf);
  const redisKeys = await countRedisKeys(TEST_INFRA.redisUrl, `${rateLimitPrefix}:rl:global:ip:10.*`).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));

  const gatewayResponses = [gatewayRun, uncachedRun].reduce((n, r) => n + r.warmup.completed + r.measured.completed, 0);
  console.log(
    `\n${settings.durationS} s per scenario after a ${settings.warmupS} s warm-up, ${settings.connections} connections/concurrent calls; ${settings.seedPosts} seeded draft posts; ${pageDescription}\n`,
  );
  const rows: ReportRow[] = [
    { name: 'node:http hello', result: helloRun.measured },
    { name: 'gRPC ListPosts (direct)', result: grpcRun.measured },
    { name: 'gateway GET /api/v1/posts', result: gatewayRun.measured },
    { name: 'same, answer cache off', result: uncachedRun.measured },
  ];
  console.log(formatTable(rows));
  console.log();
  for (const failure of formatFailures(rows)) console.log(failure);
  console.log(formatTargets(gatewayRun.measured, helloRun.measured));
  console.log(`answer cache off: ${formatTargets(uncachedRun.measured, helloRun.measured)}`);
  console.log(formatLimiterCheck(redisKeys, gatewayResponses, clientIps.count));
  for (const [name, r] of [
    ['gRPC ListPosts (direct)', grpcRun],
    ['gateway GET /api/v1/posts', gatewayRun],
    ['gateway GET /api/v1/posts, answer cache off', uncachedRun],
  ] as const) {
    if (r.cpu) console.log(`CPU ms per request, ${name}: ${cpuPerUnit(r.cpu, r.measured.completed)}`);
  }
  console.log(`gateway NODE_OPTIONS: ${settings.gatewayNodeOptions || '(none)'}`);
  console.log(`gateway memory before the gateway run: ${gatewayIdle ?? 'unknown (no pid)'}; ${gatewayIdleHeap}`);
  console.log(`gateway memory after it: ${gatewayRss ?? 'unknown (no pid)'}; ${gatewayHeap}`);
}

function gatewayProcess(stack: Stack): RunningProcess {
  const gateway = stack.processes.find((p) => p.name === 'gateway');
  if (!gateway) throw new Error('the stack has no gateway process');
  return gateway;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
