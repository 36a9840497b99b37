import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@spa/testing';
import { describe, expect, it } from 'vitest';
import { INTEGRATION_TESTS, UNIT_TESTS } from '../../vitest.config.js';

// The unit tier must stay fast and need nothing running: a test file that reaches for the store, Redis,
// NATS, the S3-compatible server, a real third-party server or a child process belongs to `integration`
// (listed in vitest.config.ts), and one that starts the stack belongs in tests/e2e.
const INFRASTRUCTURE: Array<[RegExp, string]> = [
  [/\bconnectMongo\b|from 'mongoose'|from 'mongodb'|openAccountsStore|support\/webhooks-dispatcher(\.js)?'/, 'the store'],
  [/from 'ioredis'/, 'Redis'],
  [/\bconnectNats\b|from '@nats-io\//, 'NATS'],
  [/local-s3(\.js)?'/, 'the S3-compatible server'],
  [/from '@atproto\/pds'|support\/bluesky-pds(\.js)?'/, 'a real Bluesky PDS'],
  [/from 'node:child_process'/, 'a child process'],
  [/\bmakeVideo\b/, 'ffmpeg (a child process making a test video)'],
  [/\bstartStack\b|\bstartProcess\b|\bsharedStack\b|\battachStack\b/, 'service processes'],
];

const files = (patterns: string[]) => globSync(patterns, { cwd: REPO_ROOT, exclude: (name) => name === 'node_modules' || name === 'dist' || name === '.tools' });
const matches = (file: string, patterns: string[]) => patterns.some((p) => path.matchesGlob(file, p));

describe('test tiers (vitest projects)', () => {
  it('keeps infrastructure and child processes out of the unit tier', () => {
    // (This file names the patterns it looks for, so it is not checked against them.)
    const unit = files(UNIT_TESTS).filter((f) => !matches(f, INTEGRATION_TESTS) && !f.startsWith('tests/e2e/') && f !== 'tests/repo/test-tiers.test.ts');
    expect(unit.length).toBeGreaterThan(20);
    const misplaced = unit.flatMap((file) => {
      const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      return INFRASTRUCTURE.filter(([pattern]) => pattern.test(source)).map(([, what]) => `${file} uses ${what}: list it in INTEGRATION_TESTS`);
    });
    expect(misplaced).toEqual([]);
  });

  it('lists in the integration tier only files that need it', () => {
    const light = files(INTEGRATION_TESTS).filter((file) => {
      const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      return !INFRASTRUCTURE.some(([pattern]) => pattern.test(source));
    });
    expect(light).toEqual([]);
  });

  it('names an existing test file with every integration entry', () => {
    expect(INTEGRATION_TESTS.filter((pattern) => files([pattern]).length === 0)).toEqual([]);
  });
});
