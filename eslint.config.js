// ESLint (flat config): the rules live in tools/lint/config.js, with their dependencies.
export { default } from './tools/lint/config.js';
