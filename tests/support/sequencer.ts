import { statSync } from 'node:fs';
import path from 'node:path';
import type { TestSpecification, Vitest } from 'vitest/node';

/**
 * The files that take longest, longest first (from scripts/test's summary, .run/test-times.json). Every tier
 * shares the two workers: a long file started last would run alone at the end, so these start first and the
 * many short files fill the gaps. Keep it to the files that take a minute or more.
 */
export const SLOWEST_FIRST = [
  'tests/e2e/platform-conformance.test.ts',
  'tests/e2e/openapi-fuzz.test.ts',
  'tests/e2e/publishing-reliability.test.ts',
  'tests/e2e/connect-accounts.test.ts',
  'services/posts/src/data/list-index.test.ts',
  'tests/e2e/analytics.test.ts',
  'tests/e2e/image-week.test.ts',
  'tests/e2e/operations.test.ts',
  'tests/e2e/dashboard-states.test.ts',
  'tests/e2e/content-plans-channels.test.ts',
  'tests/e2e/linkedin-uploads.test.ts',
  'tests/e2e/evergreen.test.ts',
  'tests/e2e/image-week-recovery.test.ts',
  'tests/e2e/content-plans.test.ts',
  'services/accounts/src/data/concurrency.test.ts',
  'services/image-week/src/domain/run-jobs.test.ts',
  'tests/e2e/site-push.test.ts',
];

/** Without a known time, a tier's files go after the slower tier's (e2e, integration, unit), larger files first. */
const TIER_RANK: Record<string, number> = { e2e: 0, integration: 1, unit: 2 };

/**
 * Orders the test files for a run (vitest's `sequence.sequencer`): the known slowest first, then by tier and
 * size. The same order on every machine (vitest's default uses the times of the last run on this one, and
 * none on a fresh clone).
 */
export class SlowestFirst {
  constructor(private readonly vitest: Vitest) {}

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.vitest.config.root;
    const keyed = files.map((spec) => {
      const file = path.relative(root, spec.moduleId);
      const known = SLOWEST_FIRST.indexOf(file);
      let size = 0;
      try {
        size = statSync(spec.moduleId).size;
      } catch {
        // A file that is gone is reported by the run itself.
      }
      return { spec, known: known === -1 ? Infinity : known, tier: TIER_RANK[spec.project.name] ?? 3, size };
    });
    keyed.sort((a, b) => a.known - b.known || a.tier - b.tier || b.size - a.size);
    return keyed.map((k) => k.spec);
  }

  /** `--shard=i/n`: the i-th of n slices of the files in path order (each file in exactly one). */
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.vitest.config.shard!;
    const sorted = [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
    const size = Math.ceil(sorted.length / count);
    return sorted.slice((index - 1) * size, index * size);
  }
}
