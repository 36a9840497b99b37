import { listPostsRequest } from '@spa/contracts/codecs';
import type { PromiseClient } from '@spa/grpc';
import type { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import type { ClientIps } from './client-ips.js';
import { cpuDelta, type CpuSnapshot } from './cpu.js';
import { runCallLoad } from './grpc-load.js';
import { runHttpLoad } from './http-load.js';
import type { BenchSettings } from './settings.js';
import type { LoadResult } from './stats.js';

export interface ScenarioRun {
  warmup: LoadResult;
  measured: LoadResult;
  /** CPU seconds each process and the infrastructure spent during the measured run, when asked for. */
  cpu?: CpuSnapshot;
}

/** Runs the same load twice: a warm-up whose figures are discarded, then the measured run (with the CPU spent, given `cpuOf`). */
async function warmThenMeasure(settings: BenchSettings, run: (durationS: number) => Promise<LoadResult>, cpuOf?: () => Promise<CpuSnapshot>): Promise<ScenarioRun> {
  const warmup = await run(settings.warmupS);
  const before = await cpuOf?.();
  const measured = await run(settings.durationS);
  const cpu = before && cpuOf ? cpuDelta(before, await cpuOf()) : undefined;
  return { warmup, measured, ...(cpu ? { cpu } : {}) };
}

export function benchHello(settings: BenchSettings, address: string): Promise<ScenarioRun> {
  return warmThenMeasure(settings, (durationS) => runHttpLoad({ url: `http://${address}/`, connections: settings.connections, durationS }));
}

export function benchListPostsGrpc(settings: BenchSettings, posts: PromiseClient<PostsServiceClient>, workspaceId: number, cpuOf?: () => Promise<CpuSnapshot>): Promise<ScenarioRun> {
  const request = listPostsRequest({ workspaceId, sort: 'created_at', direction: 'desc', limit: settings.pageSize, offset: 0 });
  return warmThenMeasure(settings, (durationS) => runCallLoad({ call: () => posts.listPosts(request), concurrency: settings.connections, durationS }), cpuOf);
}

export function benchGatewayList(settings: BenchSettings, baseUrl: string, apiKey: string, clientIps: ClientIps, cpuOf?: () => Promise<CpuSnapshot>): Promise<ScenarioRun> {
  return warmThenMeasure(
    settings,
    (durationS) =>
      runHttpLoad({
        url: `${baseUrl}/api/v1${listPostsPath(settings)}`,
        connections: settings.connections,
        durationS,
        headers: { authorization: `Bearer ${apiKey}` },
        perRequestHeaders: () => ({ 'x-forwarded-for': clientIps.next() }),
      }),
    cpuOf,
  );
}

/** The list request of the gateway scenario, relative to /api/v1. */
export const listPostsPath = (settings: BenchSettings): string => `/posts?limit=${settings.pageSize}`;
