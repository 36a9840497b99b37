import { GenerationServiceClient } from '@spa/contracts/generation/v1/generation';
import { createClient } from '@spa/grpc';
import type { GenerationPort } from '../domain/recycle-ports.js';

/** The generation service as recycling sees it, over gRPC (its Generate RPC: the workspace's voice, rules and daily quota). */
export function generationPort(address: string, deadlineMs: number): GenerationPort & { close(): void } {
  const client = createClient(GenerationServiceClient, address, { deadlineMs });
  return {
    async rewrite({ workspaceId, platform, topic, angle }) {
      const { body } = await client.generate({ workspaceId, platform, topic, angle });
      return body;
    },
    close: () => client.close(),
  };
}
