import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@spa/testing';
import { describe, expect, it } from 'vitest';

// Every environment variable a process reads (the keys of its zod config schema) is documented in
// .env.example, the one place operators look (docs/operations.md, "Configuration").
const CONFIG_FILES = [
  // The settings every process shares (operationsEnv: metrics port, gRPC transport security).
  'libs/config/src/index.ts',
  'gateway/src/config.ts',
  ...readdirSync(path.join(REPO_ROOT, 'services')).map((s) => `services/${s}/src/config.ts`),
].filter((f) => existsSync(path.join(REPO_ROOT, f)));

const keysOf = (file: string): string[] => [...readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);

describe('.env.example', () => {
  const documented = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');
  it.each(CONFIG_FILES)('documents every variable of %s', (file) => {
    const keys = keysOf(file);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => !new RegExp(`^#?\\s*${k}=`, 'm').test(documented))).toEqual([]);
  });
});
