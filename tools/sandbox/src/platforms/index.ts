import type { SandboxPlatform } from '../router.js';
import { twitter } from './twitter.js';

/** Every platform stand-in the sandbox serves. */
export const PLATFORM_SANDBOXES: SandboxPlatform[] = [twitter];
