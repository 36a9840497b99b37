export * from './processes.js';
export * from './stack.js';
export * from './attach.js';
export * from './http.js';
export * from './infra.js';
