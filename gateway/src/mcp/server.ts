import type { RequestListener } from 'node:http';
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server } from '@modelcontextprotocol/server';
import type { CatalogTool } from './catalog.js';
import { readerOf } from './context.js';
import { callRest, type Caller } from './dispatch.js';
import { getPrompt, promptList } from './prompts.js';
import { readResource, resourceList, RESOURCES } from './resources.js';
import { restRequestOf, toolResultOf, type ToolResult } from './tool-call.js';

export const SERVER_INFO = { name: 'social-publishing-api', title: 'Social Publishing and AI Content API', version: '2.12.0' };

const INSTRUCTIONS = [
  'Every tool is one operation of the REST API (/api/v1), with the same arguments: path and query parameters by name, the JSON body as `body`.',
  'A tool answers the REST JSON as structured content, with a one-line summary. A refusal is a tool error "<CODE>: <message>" with the contract’s code (INVALID_PARAMETERS names each bad field; INSUFFICIENT_SCOPE names the scope; RATE_LIMIT_EXCEEDED says when to retry): correct the call and try again.',
  'List tools page with limit and offset, as REST does. Publishing (publish_post, approve_post) and deleting are destructive: confirm with the user first.',
  'Read spa://platforms, spa://voice-profile and spa://preferences before writing posts.',
].join('\n');

/** The tools' public descriptions (what tools/list answers), built once. */
export const toolListOf = (catalog: readonly CatalogTool[]) => ({
  tools: catalog.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
    name,
    title,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations,
  })),
});

export interface McpContext {
  app: RequestListener;
  catalog: readonly CatalogTool[];
  byName: ReadonlyMap<string, CatalogTool>;
  toolList: ReturnType<typeof toolListOf>;
}

/** Runs a tool as the REST request it stands for. */
export async function runTool(ctx: McpContext, caller: Caller, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const tool = ctx.byName.get(name);
  if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const request = restRequestOf(tool, args);
  if ('content' in request) return request;
  return toolResultOf(tool.title, await callRest(ctx.app, caller, request));
}

/** The MCP server of one HTTP request: stateless, so that any gateway replica answers any request. */
export function mcpServer(ctx: McpContext, caller: Caller): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS });
  const reader = readerOf(ctx.app, caller);
  server.setRequestHandler('tools/list', () => ctx.toolList);
  server.setRequestHandler('tools/call', (request) => runTool(ctx, caller, request.params.name, request.params.arguments ?? {}));
  server.setRequestHandler('resources/list', () => resourceList());
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', async (request) => {
    const read = await readResource(reader, request.params.uri);
    if ('error' in read) {
      if (!RESOURCES.some((r) => r.uri === request.params.uri)) throw new ResourceNotFoundError(request.params.uri);
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, read.error);
    }
    return read;
  });
  server.setRequestHandler('prompts/list', () => promptList());
  server.setRequestHandler('prompts/get', (request) => {
    const prompt = getPrompt(request.params.name, request.params.arguments ?? {});
    if ('error' in prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, prompt.error);
    return prompt;
  });
  return server;
}
