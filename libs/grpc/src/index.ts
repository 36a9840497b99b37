export * from './server.js';
export * from './client.js';
export * from './shutdown.js';
export * from './health.js';
export * from './client-stream.js';
export * from './security.js';
export * from './process-runtime.js';
export * from './request-text.js';
