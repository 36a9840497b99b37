import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@spa/testing';
import { describe, expect, it } from 'vitest';

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [join(REPO_ROOT, 'tools/admin/dist/main.js'), ...args]).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('spa-admin help', () => {
  it('prints every command on stdout and exits 0 for --help and help', async () => {
    for (const args of [['--help'], ['help']]) {
      const r = await run(args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain('usage: spa-admin <command> [flags]');
      expect(r.stdout).toContain('key create --workspace W');
      expect(r.stdout).toContain('webhook create');
    }
  });

  it('prints the help of one command or group', async () => {
    const one = await run(['key', 'create', '--help']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('key create --workspace W [--user U] --scopes s1,s2|all');
    expect(one.stdout).not.toContain('key revoke');
    expect(one.stdout).toContain('ACCOUNTS_ADDR');
    const group = await run(['help', 'member']);
    expect(group.stdout).toContain('member add|remove');
    expect((await run(['member', 'remove', '--help'])).stdout).toContain('member add|remove');
  });

  it('keeps usage errors on stderr with exit 2', async () => {
    const r = await run(['nope', '--help']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command: nope');
    expect((await run([])).code).toBe(2);
  });
});
