import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '@spa/testing';

/** Runs the real `spa-admin` CLI against a webhooks service at `address` and answers its JSON output. */
export function webhookAdmin(address: string, args: string[]): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'tools/admin/dist/main.js'), ...args], { env: { ...process.env, WEBHOOKS_ADDR: address } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, any>) : reject(new Error(`spa-admin exited ${code}`))));
  });
}
