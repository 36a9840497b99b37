export { startSandbox, type Sandbox } from './server.js';
export { SandboxState, type Fault, type SandboxPost, type SandboxRequestRecord } from './state.js';
export { PLATFORM_SANDBOXES } from './platforms/index.js';
export type { SandboxPlatform, Route, SandboxRequest, SandboxResponse } from './router.js';
export { dub as DUB_SANDBOX } from './services/dub.js';
