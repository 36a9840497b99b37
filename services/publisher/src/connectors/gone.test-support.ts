import type { Sandbox } from '@spa/sandbox';
import { expect } from 'vitest';
import type { PublisherDeps } from '../domain/ports.js';
import { fetchTargetMetrics, type FetchOutcome } from '../metrics/fetch-target-metrics.js';
import type { Connector, PublishRequest } from './types.js';

/**
 * Test support for every connector's metrics: a post that no longer exists on the platform (its author
 * deleted it, the platform lost it) is `gone` to the metric fetch, which stops that target's fetches,
 * and never a failure to try again. Publishes `request` through the connector against the strict
 * stand-in, reads its metrics (`ok`), removes on the platform's side every post that publish made, and
 * reads again through the publisher's own classification. Not used by the service itself.
 */
export async function expectGoneOnceRemoved(sandbox: Sandbox, connector: Connector, request: PublishRequest): Promise<void> {
  const platform = request.target.platform;
  const before = new Set(sandbox.state.postsOf(platform).map((p) => p.id));
  const { platformPostId } = await connector.publish(request);
  const made = sandbox.state.postsOf(platform).filter((p) => !before.has(p.id));
  expect(made.length, 'the publish made a post on the stand-in').toBeGreaterThan(0);

  const deps = {
    clock: { now: () => new Date() },
    connectors: { [platform]: connector },
    accounts: { targets: async () => [request.target], markDisconnected: async () => undefined },
  } as unknown as Pick<PublisherDeps, 'accounts' | 'connectors' | 'clock'>;
  const fetch = (): Promise<FetchOutcome> => fetchTargetMetrics(deps, { workspaceId: 1, socialAccountId: request.target.socialAccountId, platform, platformPostId });

  expect(await fetch()).toMatchObject({ kind: 'ok' });
  for (const post of made) sandbox.state.remove(platform, post.id);
  expect(await fetch()).toMatchObject({ kind: 'gone', error: expect.any(String) });
}
