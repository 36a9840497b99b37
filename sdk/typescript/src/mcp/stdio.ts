#!/usr/bin/env node
/**
 * `spa-mcp`: the API's MCP server for desktop agents, over stdio. It speaks to the MCP endpoint (/mcp) of
 * SPA_BASE_URL with the API key in SPA_API_KEY; stdout carries the protocol, messages go to stderr.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { bridgeServer, connectRemote } from './bridge.js';

const fail = (message: string): never => {
  process.stderr.write(`spa-mcp: ${message}\n`);
  process.exit(1);
};

const baseUrl = process.env.SPA_BASE_URL?.trim() || fail("set SPA_BASE_URL to the API's address (e.g. https://api.example.com)");
const apiKey = process.env.SPA_API_KEY?.trim() || fail('set SPA_API_KEY to a personal API key (sk_live_…); create one in the dashboard');

const remote = await connectRemote({ baseUrl, apiKey }).catch((err: unknown) => fail(`could not reach ${new URL('/mcp', baseUrl).href}: ${err instanceof Error ? err.message : String(err)}`));
const handle = serveStdio(() => bridgeServer(remote), { onerror: (err) => process.stderr.write(`spa-mcp: ${err.message}\n`) });
process.stderr.write(`spa-mcp: serving ${new URL('/mcp', baseUrl).href} on stdio\n`);
// The host closed our stdin: the connection is over.
process.stdin.once('end', () => void handle.close().finally(() => remote.close().finally(() => process.exit(0))));
