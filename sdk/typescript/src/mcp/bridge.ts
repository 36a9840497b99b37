import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';

export interface BridgeOptions {
  /** The API's base URL (e.g. https://api.example.com); the MCP endpoint is its /mcp. */
  baseUrl: string;
  /** A personal API key (sk_live_…). */
  apiKey: string;
  /** The fetch the bridge speaks HTTP with (tests choose the client address with it). */
  fetch?: FetchLike;
}

const VERSION = '0.1.0';

/** The remote MCP endpoint, connected once: every message of the local connection is answered by it. */
export async function connectRemote(options: BridgeOptions): Promise<Client> {
  const url = new URL('/mcp', options.baseUrl);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${options.apiKey}`, 'User-Agent': `spa-mcp/${VERSION}` } },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = new Client({ name: 'spa-mcp', version: VERSION });
  await client.connect(transport);
  return client;
}

/**
 * A local MCP server that answers each request with the remote endpoint's answer: its tools, resources and
 * prompts are the remote's, listed and called there (with the API key), so rules and limits stay the API's.
 */
export function bridgeServer(remote: Client): Server {
  const info = remote.getServerVersion() ?? { name: 'social-publishing-api', version: VERSION };
  const server = new Server(info, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: remote.getInstructions() });
  server.setRequestHandler('tools/list', async () => ({ tools: (await remote.listTools()).tools }));
  server.setRequestHandler('tools/call', (request) => remote.callTool(request.params));
  server.setRequestHandler('resources/list', async () => ({ resources: (await remote.listResources()).resources }));
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: (await remote.listResourceTemplates()).resourceTemplates }));
  server.setRequestHandler('resources/read', (request) => remote.readResource(request.params));
  server.setRequestHandler('prompts/list', async () => ({ prompts: (await remote.listPrompts()).prompts }));
  server.setRequestHandler('prompts/get', (request) => remote.getPrompt(request.params));
  return server;
}
