// The repository's ESLint rules (flat config), loaded by the root eslint.config.js. typescript-eslint's
// recommended rules without type information (fast: the whole tree in well under a minute), plus the
// import boundaries of docs/architecture.md: domain/ free of transport and storage, services never import each other.
import { readdirSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import js from '@eslint/js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');

// typescript-eslint parses with TypeScript 5's compiler API; the repo compiles with TypeScript 7, which has
// none. This package holds typescript@5.9, and npm hoists ts-api-utils (a dependency of typescript-eslint)
// to the root, where `typescript` is 7: its `require('typescript')` is resolved from here instead.
const TYPESCRIPT_5 = pathToFileURL(createRequire(join(HERE, 'package.json')).resolve('typescript')).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/ts-api-utils/')) return { url: TYPESCRIPT_5, format: 'commonjs', shortCircuit: true };
    return next(specifier, context);
  },
});
const { default: tseslint } = await import('typescript-eslint');
/** Read at lint time, so a service added later is covered without editing this file. */
const SERVICES = readdirSync(join(ROOT, 'services'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** What domain code must not know about: gRPC, HTTP (Express), the database (mongoose) and NATS. */
const TRANSPORT = [
  { group: ['@grpc/*', '@spa/grpc', '@spa/grpc/*', '@spa/contracts', '@spa/contracts/*'], message: 'domain/ has no gRPC types: map them in grpc/.' },
  { group: ['express', 'express/*', 'http-proxy-middleware'], message: 'domain/ has no HTTP framework types.' },
  { group: ['mongoose', 'mongodb', '@spa/mongo', '@spa/mongo/*'], message: 'domain/ has no database types: go through a port implemented in data/.' },
  { group: ['@nats-io/*', 'nats', '@spa/nats', '@spa/nats/*'], message: 'domain/ has no NATS types: go through a port.' },
  { group: ['**/grpc/*', '**/data/*', '../grpc', '../data'], message: 'imports point down: domain/ does not import grpc/ or data/.' },
];

/** Another service's package or folder: services talk over gRPC and NATS only. */
const otherServices = (self) =>
  SERVICES.filter((s) => s !== self).map((s) => ({
    group: [`@spa/${s}`, `@spa/${s}/*`, `**/services/${s}/**`, `../../${s}/**`, `../../../${s}/**`],
    message: `services never import each other (${self} -> ${s}): call it over gRPC through @spa/contracts.`,
  }));

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', '.run/**', '.data/**', 'coverage/**', 'libs/contracts/src/gen/**', 'sdk/typescript/src/generated/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        fetch: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        performance: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      // Unused values named with a leading underscore are deliberate (destructuring a field away).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  ...SERVICES.flatMap((service) => [
    { files: [`services/${service}/src/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns: otherServices(service) }] } },
    {
      files: [`services/${service}/src/domain/**/*.ts`],
      // Tests of domain code may use the real database to check a port's behaviour.
      ignores: ['**/*.test.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns: [...otherServices(service), ...TRANSPORT] }] },
    },
  ]),
  {
    files: ['tests/**/*.ts', '**/*.test.ts'],
    // Tests read JSON answers loosely (HttpResponse.json is any) and assert on their shape.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['gateway/src/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: ['libs/testing/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: SERVICES.map((s) => ({ group: [`@spa/${s}`, `@spa/${s}/*`], message: 'the gateway and libraries reach services over gRPC only.' })) }] },
  },
);
