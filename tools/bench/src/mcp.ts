/**
 * The MCP endpoint next to REST: the same read (get a post, list a page of posts) as a REST request and as a
 * tool call (a JSON-RPC `tools/call` POSTed to /mcp, each served by a fresh stateless server and run
 * in-process as that REST request). Latency with one connection, throughput with many; every answer of a
 * sample is checked to be the post, not a tool error. Prints figures; asserts nothing.
 */
import { createWorkspace, request, startStack, type Stack } from '@spa/testing';
import { ClientIps } from './client-ips.js';
import { runHttpLoad, type HttpLoad } from './http-load.js';
import { formatFailures, type ReportRow } from './report.js';
import { loadSettings } from './settings.js';
import type { LoadResult } from './stats.js';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

const toolCall = (name: string, args: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

/** The JSON-RPC result of an MCP answer (a JSON body or one SSE `data:` line). */
function rpcResult(text: string): { isError?: boolean; structuredContent?: unknown } | undefined {
  const json = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  return json ? (JSON.parse(json) as { result?: { isError?: boolean; structuredContent?: unknown } }).result : undefined;
}

export async function benchMcp(): Promise<void> {
  const settings = loadSettings();
  progress('mcp: starting accounts, posts and gateway (TRUST_PROXY=1)');
  const stack = await startStack({ gatewayEnv: { TRUST_PROXY: '1', NODE_OPTIONS: settings.gatewayNodeOptions } });
  try {
    await run(stack, settings);
  } finally {
    await stack.stop();
  }
}

async function run(stack: Stack, settings: ReturnType<typeof loadSettings>): Promise<void> {
  const ws = await createWorkspace(stack, { tier: 'pro' });
  const clientIps = new ClientIps();
  const auth = { authorization: `Bearer ${ws.apiKey}` };
  let postId = 0;
  for (let i = 0; i < settings.seedPosts; i++) {
    const res = await stack.api('/posts', { token: ws.apiKey, body: { post: { body: `bench post ${i}` } }, headers: { 'x-forwarded-for': clientIps.next() } });
    if (res.status !== 201) throw new Error(`mcp: seeding answered ${res.status}: ${res.text}`);
    postId = res.json.post.id as number;
  }
  const restGet = { url: `${stack.baseUrl}/api/v1/posts/${postId}` };
  const mcpGet = { url: `${stack.baseUrl}/mcp`, method: 'POST' as const, body: toolCall('get_post', { id: postId }) };
  const restList = { url: `${stack.baseUrl}/api/v1/posts?limit=${settings.pageSize}` };
  const mcpList = { url: `${stack.baseUrl}/mcp`, method: 'POST' as const, body: toolCall('list_posts', { limit: settings.pageSize }) };

  // One sample of each: the tool call answers what REST answers.
  const viaRest = await request(stack.baseUrl, `/api/v1/posts/${postId}`, { token: ws.apiKey, headers: { 'x-forwarded-for': clientIps.next() } });
  const viaMcp = await request(stack.baseUrl, '/mcp', { token: ws.apiKey, body: mcpGet.body, headers: { ...MCP_HEADERS, 'x-forwarded-for': clientIps.next() } });
  const result = rpcResult(viaMcp.text);
  const same = !result?.isError && JSON.stringify(result?.structuredContent) === JSON.stringify(viaRest.json);
  if (!same) throw new Error(`mcp: the tool call did not answer the REST JSON: ${viaMcp.status} ${viaMcp.text.slice(0, 300)}`);

  const load = (target: Pick<HttpLoad, 'url' | 'method' | 'body'>, connections: number, durationS: number): Promise<LoadResult> =>
    runHttpLoad({
      ...target,
      connections,
      durationS,
      headers: target.method === 'POST' ? { ...auth, ...MCP_HEADERS } : auth,
      perRequestHeaders: () => ({ 'x-forwarded-for': clientIps.next() }),
    });
  const measure = async (name: string, target: Pick<HttpLoad, 'url' | 'method' | 'body'>, connections: number): Promise<ReportRow> => {
    progress(`mcp: ${name} (${settings.warmupS} s warm-up + ${settings.durationS} s, ${connections} connection${connections === 1 ? '' : 's'})`);
    await load(target, connections, settings.warmupS);
    return { name, result: await load(target, connections, settings.durationS) };
  };
  const sequential = [
    await measure('REST GET /posts/{id}, 1 connection', restGet, 1),
    await measure('tool get_post, 1 connection', mcpGet, 1),
    await measure(`REST GET /posts?limit=${settings.pageSize}, 1 connection`, restList, 1),
    await measure('tool list_posts, 1 connection', mcpList, 1),
  ];
  const concurrent = [
    await measure(`REST GET /posts/{id}, ${settings.connections} connections`, restGet, settings.connections),
    await measure(`tool get_post, ${settings.connections} connections`, mcpGet, settings.connections),
  ];
  console.log(`\nMCP tool calls next to the same REST requests (${settings.durationS} s each after a ${settings.warmupS} s warm-up)\n`);
  console.log('| scenario | req/s | p50 ms | p99 ms | tool / REST req/s | responses | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|---|');
  const rows = [...sequential, ...concurrent];
  rows.forEach(({ name, result: r }, i) => {
    const twin = i % 2 === 1 ? rows[i - 1]!.result.requestsPerSec : undefined;
    const ratio = twin ? (r.requestsPerSec / twin).toFixed(2) : '';
    console.log(`| ${name} | ${r.requestsPerSec.toFixed(1)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${ratio} | ${r.completed} | ${r.non2xx} | ${r.errors} |`);
  });
  for (const failure of formatFailures(rows)) console.log(failure);
}
