import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The first `<ancestor>/<relative>` that exists, looking up from the folder of `moduleUrl` (a module's
 * `import.meta.url`), or undefined. Files shipped beside the code (proto files, fonts, the dashboard build)
 * are found this way from a compiled module (`dist/...`) and from a process bundle (`dist/bundle/main.mjs`)
 * alike, whatever their depth.
 */
export function findUp(moduleUrl: string, relative: string): string | undefined {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
