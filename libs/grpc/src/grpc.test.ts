import { AccountsServiceClient, AccountsServiceService } from '@spa/contracts/accounts/v1/accounts';
import { AppError } from '@spa/errors';
import { createLogger, currentRequestId, withRequestId } from '@spa/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindService, checkHealth, createClient, startGrpcServer, type RunningGrpcServer } from './index.js';

const logger = createLogger('grpc-test', 'silent');
let server: RunningGrpcServer;
let seenRequestIds: Array<string | undefined> = [];

beforeAll(async () => {
  // A real server on a free port with handlers written for this test (not a stand-in for a service).
  const handlers = {
    getWorkspace: async (req: { workspaceId: number }) => {
      seenRequestIds.push(currentRequestId());
      if (req.workspaceId === 404) throw new AppError('NOT_FOUND', 'Workspace 404 not found');
      if (req.workspaceId === 500) throw new Error('boom');
      if (req.workspaceId === 408) await new Promise((r) => setTimeout(r, 500));
      return { workspace: { id: req.workspaceId, name: 'w', tier: 'pro', subscriptionStatus: 'active', reviewRequired: false, ownerUserId: 1, createdAt: '' } };
    },
  };
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [bindService('accounts.v1.AccountsService', AccountsServiceService, handlers as never)],
  });
});
afterAll(async () => {
  await server?.shutdown();
});

describe('gRPC server and client', () => {
  it('reports SERVING through grpc.health.v1 for the server and each service', async () => {
    const address = `127.0.0.1:${server.port}`;
    expect(await checkHealth(address)).toBe('SERVING');
    expect(await checkHealth(address, 'accounts.v1.AccountsService')).toBe('SERVING');
  });

  it('answers calls and propagates the request id in metadata', async () => {
    const client = createClient(AccountsServiceClient, `127.0.0.1:${server.port}`);
    seenRequestIds = [];
    const res = await withRequestId('req-42', () => client.getWorkspace({ workspaceId: 7 }));
    expect(res.workspace?.id).toBe(7);
    expect(seenRequestIds).toEqual(['req-42']);
    client.close();
  });

  it('carries AppError codes across the wire and hides unexpected errors', async () => {
    const client = createClient(AccountsServiceClient, `127.0.0.1:${server.port}`);
    await expect(client.getWorkspace({ workspaceId: 404 })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Workspace 404 not found' });
    await expect(client.getWorkspace({ workspaceId: 500 })).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'Internal error' });
    client.close();
  });

  it('enforces deadlines: a slow call fails with SERVICE_UNAVAILABLE', async () => {
    const client = createClient(AccountsServiceClient, `127.0.0.1:${server.port}`, { deadlineMs: 100 });
    await expect(client.getWorkspace({ workspaceId: 408 })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    client.close();
  });

  it('turns NOT_SERVING on shutdown', async () => {
    const other = await startGrpcServer({ host: '127.0.0.1', port: 0, logger, services: [] });
    const address = `127.0.0.1:${other.port}`;
    expect(await checkHealth(address)).toBe('SERVING');
    other.health.setStatus('', 'NOT_SERVING');
    expect(await checkHealth(address)).toBe('NOT_SERVING');
    await other.shutdown();
    await expect(checkHealth(address)).rejects.toBeDefined();
  });
});
