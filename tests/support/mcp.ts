import http from 'node:http';
import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';

/** A fetch over node:http from a chosen source address (so a test is its own client IP), counting its requests. */
export function fetchFrom(localAddress: string): FetchLike & { requests: number } {
  const fetchLike = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? init.body : init?.body == null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    fetchLike.requests += 1;
    return new Promise<Response>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: init?.method ?? 'GET', headers, localAddress, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) for (const one of [v].flat()) out.append(k, one);
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: out }));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      if (body !== undefined) req.write(body);
      req.end();
    });
  }) as FetchLike & { requests: number };
  fetchLike.requests = 0;
  return fetchLike;
}

export interface McpConnection {
  client: Client;
  /** HTTP requests the client has sent so far. */
  requests(): number;
}

/**
 * The SDK's own client over Streamable HTTP, connected to the gateway's /mcp with a bearer token, from `localAddress`:
 * a 2025-era client (initialize), or with `modern` one that negotiates the 2026-07-28 revision (server/discover).
 */
export async function connectMcp(baseUrl: string, token: string, localAddress: string, opts: { modern?: boolean } = {}): Promise<McpConnection> {
  const fetch = fetchFrom(localAddress);
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch });
  const client = new Client({ name: 'e2e', version: '1.0.0' }, opts.modern ? { versionNegotiation: { mode: 'auto' } } : undefined);
  await client.connect(transport);
  return { client, requests: () => fetch.requests };
}

/** The text of a tool result's first content block. */
export const firstText = (result: { content?: unknown }): string => (result.content as Array<{ type: string; text?: string }> | undefined)?.[0]?.text ?? '';
