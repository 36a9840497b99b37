/** How long and how hard each scenario runs: BENCH_DURATION_S overrides the measured duration. */
export interface BenchSettings {
  durationS: number;
  warmupS: number;
  connections: number;
  seedPosts: number;
  pageSize: number;
  /** V8 flags of the measured gateway: those it is deployed with (deploy/base/gateway.yaml) unless BENCH_GATEWAY_NODE_OPTIONS says otherwise. */
  gatewayNodeOptions: string;
}

export const GATEWAY_DEPLOYED_NODE_OPTIONS = '--max-semi-space-size=16 --max-old-space-size=256';

export function loadSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  return {
    durationS: positiveNumber(env.BENCH_DURATION_S, 10, 'BENCH_DURATION_S'),
    warmupS: 2,
    connections: 50,
    seedPosts: 50,
    pageSize: 20,
    gatewayNodeOptions: env.BENCH_GATEWAY_NODE_OPTIONS ?? GATEWAY_DEPLOYED_NODE_OPTIONS,
  };
}

function positiveNumber(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of seconds, got ${JSON.stringify(raw)}`);
  return value;
}
