export * from './connectors/types.js';
export * from './connectors/registry.js';
