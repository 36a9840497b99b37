import type { SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxState } from '../state.js';
import { graphParams, withToken } from './meta-graph.js';

type AsyncHandler = (req: SandboxRequest, state: SandboxState, params: Record<string, string>) => Promise<SandboxResponse>;
const PASS: SandboxResponse = { status: 0 };

/** The Graph token check of `withToken` (meta-graph.ts), for a handler that must wait: one that pulls media from a URL while answering. */
export function withTokenAsync(handler: AsyncHandler) {
  const gate = withToken(() => PASS);
  return async (req: SandboxRequest, state: SandboxState): Promise<SandboxResponse> => {
    const refused = gate(req, state);
    return refused === PASS ? handler(req, state, graphParams(req)) : refused;
  };
}
