import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@spa/testing';
import { describe, expect, it } from 'vitest';

// Each service's README names every RPC its protos declare (the README is where a reader looks first;
// it drifted before). The service's protos live in proto/<service with _>/v1/.
const SERVICES = readdirSync(path.join(REPO_ROOT, 'services')).filter((s) => existsSync(path.join(REPO_ROOT, 'proto', s.replaceAll('-', '_'), 'v1')));

const rpcsOf = (service: string): string[] => {
  const dir = path.join(REPO_ROOT, 'proto', service.replaceAll('-', '_'), 'v1');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.proto'))
    .flatMap((f) => [...readFileSync(path.join(dir, f), 'utf8').matchAll(/^\s*rpc\s+(\w+)\s*\(/gm)].map((m) => m[1]!));
};

describe('service READMEs', () => {
  it('covers the services that have protos', () => {
    expect(SERVICES).toEqual(expect.arrayContaining(['accounts', 'posts', 'publisher', 'webhooks', 'media', 'image-week', 'analytics']));
  });

  it.each(SERVICES)('services/%s/README.md names every RPC of its protos', (service) => {
    const readme = readFileSync(path.join(REPO_ROOT, 'services', service, 'README.md'), 'utf8');
    const rpcs = rpcsOf(service);
    expect(rpcs.length).toBeGreaterThan(0);
    expect(rpcs.filter((rpc) => !new RegExp(`\\b${rpc}\\b`).test(readme))).toEqual([]);
  });
});
