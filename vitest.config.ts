import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './tests/support/sequencer.js';

/**
 * Test tiers (vitest projects; `npx vitest run --project unit`):
 * - unit: in one process, no infrastructure: pure logic, plus loopback stand-ins the test starts itself
 *   (platform sandboxes, an in-process gRPC server). Runs in seconds.
 * - integration: the real store, Redis, NATS or S3-compatible server, a real third-party server (the
 *   Bluesky PDS) or a built program run as a child process; no service processes.
 * - e2e: tests/e2e, the real processes (gateway and services) over HTTP.
 * A test file is unit unless it is listed here; tests/repo/test-tiers.test.ts fails when a unit file
 * reaches for infrastructure or a child process, or when an entry below names no file. The entries name
 * the file within its service (`**`), so moving a test inside its package keeps its tier.
 */
export const INTEGRATION_TESTS = [
  'gateway/src/**/limits.test.ts',
  'gateway/src/**/document.test.ts',
  'libs/mongo/src/**/id-allocator.test.ts',
  'libs/mongo/src/**/store-settings.test.ts',
  'libs/nats/src/**/nats.test.ts',
  'libs/events/src/**/outbox.test.ts',
  'libs/redis/src/**/versioned-cache.test.ts',

  'sdk/typescript/src/**/sdk.test.ts',
  'services/accounts/src/**/concurrency.test.ts',
  'services/accounts/src/**/credential-changes.test.ts',
  'services/accounts/src/**/dashboard-store.test.ts',
  'services/accounts/src/**/repositories.test.ts',
  'services/accounts/src/**/revisions.test.ts',
  'services/accounts/src/**/rules-and-preferences.test.ts',
  'services/analytics/src/**/best-times.test.ts',
  'services/analytics/src/**/track-inserts.test.ts',
  'services/analytics/src/**/unreported-counts.test.ts',
  'services/generation/src/**/daily-quota.test.ts',
  'services/image-week/src/**/monthly-quota.test.ts',
  'services/image-week/src/**/run-jobs.test.ts',
  'services/media/src/**/sweep-uploads.test.ts',
  'services/media/src/**/prepare-media.test.ts',
  'services/media/src/**/asset-store.test.ts',
  'services/media/src/**/s3.test.ts',
  'services/posts/src/**/cached-store.test.ts',
  'services/posts/src/**/hot-queries.test.ts',
  'services/posts/src/**/list-index.test.ts',
  'services/posts/src/**/post-docs.test.ts',
  'services/posts/src/**/publishing.test.ts',
  'services/posts/src/**/recycle-store.test.ts',
  'services/posts/src/**/relay.test.ts',
  'services/posts/src/**/write-batches.test.ts',
  'services/publisher/src/**/consumer.test.ts',
  'services/publisher/src/**/credential-changes.test.ts',
  'services/publisher/src/connectors/{pinterest,tiktok,youtube,instagram,facebook}.test.ts',
  'services/publisher/src/connectors/{slack,tumblr,discord,telegram,linkedin,google-business}.test.ts',
  'services/publisher/src/connectors/{twitter,bluesky,mastodon,threads}.test.ts',
  'services/publisher/src/**/hot-queries.test.ts',
  'services/publisher/src/**/publish-target.test.ts',
  'services/webhooks/src/**/dispatcher.test.ts',
  'services/webhooks/src/**/event-log.test.ts',
  'services/webhooks/src/**/dispatcher-offers.test.ts',
  'services/webhooks/src/**/hot-queries.test.ts',
  'services/webhooks/src/**/mongo-store.test.ts',
  'services/webhooks/src/**/post-terminal-consumer.test.ts',
  'services/webhooks/src/**/webhook-rules.test.ts',
  'tests/bluesky-pds/**/*.test.ts',
  'tools/admin/src/**/help.test.ts',
];

const E2E_TESTS = ['tests/e2e/**/*.test.ts'];
export const UNIT_TESTS = ['**/src/**/*.test.ts', 'tests/repo/**/*.test.ts'];
const EXCLUDE = ['**/node_modules/**', '**/dist/**', '.tools/**'];

export default defineConfig({
  test: {
    exclude: EXCLUDE,
    // Generous: the 1,000-post reliability test loads both cores while other files run beside it.
    testTimeout: 120_000,
    // A test stack (ten processes) started while both workers are busy has taken over 60 s here.
    hookTimeout: 120_000,
    maxWorkers: 2,
    // The known slowest files first, whatever their tier (tests/support/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS, exclude: [...EXCLUDE, ...INTEGRATION_TESTS, ...E2E_TESTS] } },
      { extends: true, test: { name: 'integration', include: INTEGRATION_TESTS } },
      // One stack for the e2e files that need nothing special of it (tests/support/shared-stack.ts), started before them.
      { extends: true, test: { name: 'e2e', include: E2E_TESTS, globalSetup: ['tests/support/e2e-setup.ts'] } },
    ],
  },
});
