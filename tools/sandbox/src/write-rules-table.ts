import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PLATFORM_SANDBOXES } from './platforms/index.js';
import { withRulesTable } from './rules-table.js';

/** Rewrites the rule table of the sandbox's README from the stand-ins' declared rules. */
const readme = fileURLToPath(new URL('../README.md', import.meta.url));
writeFileSync(readme, withRulesTable(readFileSync(readme, 'utf8'), PLATFORM_SANDBOXES));
console.log(`rule table written to ${readme}`);
