// One ESM bundle per process (`<package>/dist/bundle/main.mjs`, plus a chunk per lazily loaded part), built
// from its compiled `dist/main.js` (`scripts/lib/build.sh`): a process then loads one file instead of every module
// of its dependencies one by one. Test stacks and the bench run these (libs/testing `processEntry`).
import { defineConfig } from 'rolldown';

export const PROCESSES = [
  'gateway',
  'services/accounts',
  'services/analytics',
  'services/generation',
  'services/image-week',
  'services/media',
  'services/posts',
  'services/publisher',
  'services/webhooks',
  'tools/sandbox',
];

/**
 * Packages that load files beside their own code (native addons, worker scripts, proto and data files, found
 * through `__dirname`, which a bundle does not have) stay in node_modules. `npm run bundle` fails when a bundle
 * still names `__dirname` or `__filename` (tools/bundle/check.mjs).
 */
const EXTERNAL = [
  /^sharp(\/|$)/,
  /^@img\//,
  /^@resvg\//,
  /^@node-rs\//,
  /^tesseract\.js/,
  /^@tesseract\.js-data\//,
  /^@grpc\//,
  /^grpc-health-check(\/|$)/,
  /^pino(\/|$)/,
  /^thread-stream(\/|$)/,
  /^ioredis(\/|$)/,
  /^rate-limiter-flexible(\/|$)/,
  /^swagger-ui-(dist|express)(\/|$)/,
  /\.node$/,
];

export default PROCESSES.map((dir) =>
  defineConfig({
    input: `${dir}/dist/main.js`,
    platform: 'node',
    external: EXTERNAL,
    logLevel: 'warn',
    output: { dir: `${dir}/dist/bundle`, entryFileNames: 'main.mjs', chunkFileNames: '[name]-[hash].mjs', format: 'esm', sourcemap: true },
  }),
);
