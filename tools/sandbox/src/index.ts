export { startSandbox, type Sandbox } from './server.js';
export { SandboxState, type Fault, type SandboxPost, type SandboxRequestRecord, type SandboxUpload } from './state.js';
export { inspectMedia, type InspectedMedia } from './media/inspect.js';
export { mediaViolation, type SandboxMediaRule } from './media/rules.js';
export { fetchMedia, formFile, readForm } from './media/receive.js';
export { PLATFORM_SANDBOXES } from './platforms/index.js';
export type { PlatformRules, SandboxPlatform, Route, SandboxRequest, SandboxResponse } from './router.js';
export { dub as DUB_SANDBOX } from './services/dub.js';
