export * from './registry.js';
export * from './red.js';
export * from './business.js';
export * from './server.js';
export * from './dependencies.js';
export * from './tracing.js';
export * from './origin.js';
