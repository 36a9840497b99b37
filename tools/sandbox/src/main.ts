import { PLATFORM_SANDBOXES } from './platforms/index.js';
import { startSandbox } from './server.js';
import { dub } from './services/dub.js';

/** `node tools/sandbox/dist/main.js`: every platform stand-in, and Dub's link API, on SANDBOX_PORT (default 8090). */
const port = Number(process.env.SANDBOX_PORT ?? 8090);
const sandbox = await startSandbox([...PLATFORM_SANDBOXES, dub], port, '127.0.0.1', { oauth: true });
sandbox.state.metricsGrowthPerMinute = Number(process.env.SANDBOX_METRICS_GROWTH_PER_MINUTE ?? 0);
process.stdout.write(`READY http=${sandbox.url.replace('http://', '')}\n`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
