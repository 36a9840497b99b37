import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLATFORM_SANDBOXES } from './platforms/index.js';
import { withRulesTable } from './rules-table.js';

describe("the sandbox README's rule table", () => {
  it('is the one made from the stand-ins (run node tools/sandbox/dist/write-rules-table.js after changing a rule)', () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    expect(readme).toBe(withRulesTable(readme, PLATFORM_SANDBOXES));
  });

  it('has, for every platform, rules with a source link for each kind of media the stand-in takes', () => {
    for (const platform of PLATFORM_SANDBOXES) {
      const rules = platform.rules;
      expect(rules, `${platform.name} declares no rules`).toBeDefined();
      for (const [kind, rule] of Object.entries(rules?.media ?? {})) expect(rule.source, `${platform.name} ${kind}`).toMatch(/^https:\/\//);
      for (const { rule, source } of rules?.other ?? []) expect(source, `${platform.name}: ${rule}`).toMatch(/^https:\/\//);
    }
  });
});
