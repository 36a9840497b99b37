// Fails when a process bundle still names `__dirname` or `__filename` (undefined in an ES module): the package
// that does belongs in EXTERNAL of rolldown.config.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROCESSES } from './rolldown.config.mjs';

const found = PROCESSES.flatMap((dir) => {
  const bundleDir = path.join(dir, 'dist/bundle');
  return readdirSync(bundleDir)
    .filter((f) => f.endsWith('.mjs'))
    .flatMap((f) => {
      const text = readFileSync(path.join(bundleDir, f), 'utf8');
      return [...text.matchAll(/\b__(dirname|filename)\b/g)].map((m) => `${path.join(bundleDir, f)}: ${text.slice(Math.max(0, m.index - 80), m.index + 40).replace(/\s+/g, ' ')}`);
    });
});
if (found.length) {
  console.error(`bundles name __dirname or __filename (make their package external in tools/bundle/rolldown.config.mjs):\n${found.join('\n')}`);
  process.exit(1);
}
