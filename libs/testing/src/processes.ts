import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  /** host:port printed on the READY line. */
  address: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Every process started here and still running. When the test process exits, they are killed with it, so a
 * stack that failed half-way through starting (or a test that threw before its cleanup) leaves no orphan
 * holding ports, database connections and CPU for the files that follow.
 */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Runs `start`; when it throws, kills every process it started that is still running, so a setup that failed
 * half-way (a service that never got ready on a loaded machine) leaves nothing behind for the files that follow.
 */
export async function stopStartedOnFailure<T>(start: () => Promise<T>): Promise<T> {
  const before = new Set(live);
  try {
    return await start();
  } catch (err) {
    for (const child of live) if (!before.has(child)) child.kill('SIGKILL');
    throw err;
  }
}

/**
 * Starts one built process (e.g. services/posts/dist/main.js) with the given environment and waits
 * for its `READY <kind>=host:port` line. Fails with the process output if it exits or takes too long
 * (45 s: on two cores a process started while the suite's heaviest tests run has taken over 20 s; or TEST_PROCESS_READY_MS).
 */
export function startProcess(name: string, script: string, env: Record<string, string>, timeoutMs = Number(process.env.TEST_PROCESS_READY_MS) || 45_000): Promise<RunningProcess> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, script)], {
    // METRICS_PORT 0: every test process's operations port is a free one (they run side by side).
    env: { ...process.env, LOG_LEVEL: 'warn', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let out = '';
  // TEST_PROCESS_LOG_DIR keeps every started process's output in a file (for debugging a CI run).
  const logDir = process.env.TEST_PROCESS_LOG_DIR;
  const log = logDir ? createWriteStream(path.join(logDir, `${name}-${child.pid}.log`)) : undefined;
  if (log) {
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('exit', () => log.end());
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} not ready within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /READY \w+=(\S+)/.exec(out);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve({
          name,
          child,
          address: ready[1],
          output: () => out,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it was ready:\n${out}`));
    });
  });
}

/**
 * Runs the admin CLI (`spa-admin`) as a real process against the given service addresses
 * (`ACCOUNTS_ADDR`, `WEBHOOKS_ADDR`); resolves with its exit code, stdout and stderr.
 */
export function runAdmin(args: string[], addresses: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'tools/admin/dist/main.js'), ...args], {
      env: { ...process.env, ...addresses },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
