import { open } from 'node:fs/promises';
import path from 'node:path';
import { attachStack, freshClientAddress, useClientAddressBlock, type Stack } from '@spa/testing';
import { inject } from 'vitest';
import type {} from './e2e-setup.js';

/**
 * The e2e tier's shared stack (started once by tests/support/e2e-setup.ts), for a file that needs nothing special
 * of a stack: no settings of its own, no replica added, no process killed. The file's client addresses come from a
 * block no other file holds (the gateway's per-address limits are shared too). `stop()` stops only what the file
 * started itself (extra gateways) and closes its clients.
 *
 * Everything a file makes is its own: its workspaces (and so its posts, keys and users), and its sandbox accounts,
 * whose names must be its own too (uniqueName), since the platform sandbox keeps posts, requests and faults per
 * account name. A sandbox fault names its account (`POST /_sandbox/faults {account}`); the sandbox's global settings
 * (latency, metrics growth, OAuth token lifetimes, reset) are not for files that share it.
 */
export async function sharedStack(): Promise<Stack> {
  const shared = inject('sharedStack');
  useClientAddressBlock(await claimBlock(shared.clientBlocks));
  // Requests that name no client address (the dashboard's, say) come from one address of the file's block.
  return attachStack(shared.stack, freshClientAddress());
}

/** The lowest block not yet claimed in `dir` (claimed by creating its file, which fails for all but one claimant). */
async function claimBlock(dir: string): Promise<number> {
  for (let block = 0; block < 200; block += 1) {
    try {
      await (await open(path.join(dir, String(block)), 'wx')).close();
      return block;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error('all 200 client address blocks are claimed: more test files attach to the shared stack than it has blocks for');
}
