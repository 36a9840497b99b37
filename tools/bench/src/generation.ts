/**
 * Generation benchmark. Prints (asserts nothing):
 * 1. generations per second of the built-in composer through the gateway (POST /posts/generate, many
 *    workspaces so that the 10/min per-token bucket never stops the run; a fresh client address per request);
 * 2. the generation service's added latency over a loopback OpenAI-compatible server that answers in
 *    200 ms: end-to-end latency through the gateway minus 200 ms, p50/p99, sequential requests.
 */
import { createWorkspace, freshClientAddress, startProcess, startStack, type Stack, type TestWorkspace } from '@spa/testing';
import { percentile } from './stats.js';

const BUILTIN_WORKSPACES = 40;
const PER_WORKSPACE = 10;
const CONCURRENCY = 8;
const REMOTE_REQUESTS = 60;
const MODEL_LATENCY_MS = 200;
const PLATFORMS = ['twitter', 'linkedin', 'bluesky', 'instagram', 'mastodon', 'facebook'] as const;

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);

export async function benchGeneration(): Promise<void> {
  progress('generation: starting a stack (built-in composer)');
  const builtin = await startStack();
  try {
    await benchBuiltin(builtin);
  } finally {
    await builtin.stop();
  }
  progress(`generation: starting the OpenAI-compatible stand-in (${MODEL_LATENCY_MS} ms) and a stack using it`);
  const standIn = await startProcess('openai-stand-in', 'tests/support/openai-stand-in.ts', { STAND_IN_DELAY_MS: String(MODEL_LATENCY_MS) });
  const remote = await startStack({ generationEnv: { AI_BASE_URL: `http://${standIn.address}/v1`, AI_API_KEY: 'bench', AI_MODELS: 'bench-model' } });
  try {
    await benchRemote(remote);
  } finally {
    await remote.stop();
    await standIn.stop();
  }
}

async function generate(stack: Stack, ws: TestWorkspace, i: number): Promise<number> {
  const started = performance.now();
  const res = await stack.api('/posts/generate', {
    token: ws.apiKey,
    localAddress: freshClientAddress(),
    body: { topic: `Bench topic ${i % 17}: shipping small improvements`, platform: PLATFORMS[i % PLATFORMS.length] },
  });
  if (res.status !== 200) throw new Error(`generate answered ${res.status}: ${res.text}`);
  return performance.now() - started;
}

async function benchBuiltin(stack: Stack): Promise<void> {
  const workspaces = await Promise.all(Array.from({ length: BUILTIN_WORKSPACES }, () => createWorkspace(stack, { tier: 'team' })));
  // Warm-up: one per workspace (also learns each neutral voice profile once).
  await runPool(workspaces.length, CONCURRENCY, (i) => generate(stack, workspaces[i]!, i));
  const total = workspaces.length * (PER_WORKSPACE - 1);
  const started = performance.now();
  const latencies = await runPool(total, CONCURRENCY, (i) => generate(stack, workspaces[i % workspaces.length]!, i));
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  process.stdout.write(
    `\nGeneration, built-in composer through the gateway (${total} POST /posts/generate, ${CONCURRENCY} concurrent):\n` +
      `  ${(total / seconds).toFixed(1)} generations/s; latency p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms\n`,
  );
}

async function benchRemote(stack: Stack): Promise<void> {
  const workspaces = await Promise.all(Array.from({ length: Math.ceil(REMOTE_REQUESTS / PER_WORKSPACE) + 1 }, () => createWorkspace(stack, { tier: 'team' })));
  await generate(stack, workspaces.at(-1)!, 0); // warm-up (connections, voice profile)
  const added: number[] = [];
  for (let i = 0; i < REMOTE_REQUESTS; i++) added.push((await generate(stack, workspaces[i % (workspaces.length - 1)]!, i)) - MODEL_LATENCY_MS);
  const sorted = Float64Array.from(added).sort();
  process.stdout.write(
    `\nGeneration over a loopback OpenAI-compatible server answering in ${MODEL_LATENCY_MS} ms (${REMOTE_REQUESTS} sequential requests):\n` +
      `  added latency (end-to-end through the gateway − ${MODEL_LATENCY_MS} ms): p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms\n`,
  );
}

async function runPool(total: number, concurrency: number, task: (i: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) out.push(await task(next++));
    }),
  );
  return out;
}
