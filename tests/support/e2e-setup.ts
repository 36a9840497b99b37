import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type StackAddresses } from '@spa/testing';
import type { TestProject } from 'vitest/node';

/** What the e2e files' workers are given (inject('sharedStack')): the shared stack, and where files claim client address blocks. */
export interface SharedStackContext {
  stack: StackAddresses;
  /** A directory where each file that attaches claims a client address block by creating its file. */
  clientBlocks: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedStack: SharedStackContext;
  }
}

/**
 * Global setup of the e2e tier: starts one stack (publishing with the platform sandbox, webhooks) before the
 * files run, and stops it after the last. Files that need nothing special of a stack attach to it (sharedStack
 * in tests/support/shared-stack.ts) instead of starting ten processes of their own; each makes its own
 * workspaces, sandbox accounts and client addresses, so that the files sharing it never see each other.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stack = await startStack({ publishing: true, webhooks: true });
  const clientBlocks = await mkdtemp(path.join(tmpdir(), 'spa-client-blocks-'));
  project.provide('sharedStack', { stack: stack.addresses, clientBlocks });
  return async () => {
    await stack.stop();
    await rm(clientBlocks, { recursive: true, force: true });
  };
}
