// A vitest reporter (scripts/test adds it) that says where the test time went: per tier (vitest project) the
// files, their tests, the time spent in them (setup, hooks and tests, summed over the workers) and when the tier
// ran; then the slowest files. It also writes .run/test-times.json with every file's time, for comparing runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const clock = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

const fileTime = (d) => d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration;

export default class TestTimes {
  /** moduleId -> start (ms since epoch), set when the file starts. */
  starts = new Map();
  files = [];

  onInit(vitest) {
    this.root = vitest.config.root;
    this.begin = Date.now();
  }

  onTestModuleStart(testModule) {
    this.starts.set(testModule.moduleId, Date.now());
  }

  onTestModuleEnd(testModule) {
    const end = Date.now();
    const start = this.starts.get(testModule.moduleId) ?? end;
    const tests = [...testModule.children.allTests()].length;
    this.files.push({
      tier: testModule.project.name || 'default',
      file: path.relative(this.root, testModule.moduleId),
      state: testModule.state(),
      tests,
      // The file's own time in its worker (importing it, its hooks, a stack it starts, its tests), and when it ran.
      ms: fileTime(testModule.diagnostic()) || end - start,
      from: start - this.begin,
      to: end - this.begin,
    });
  }

  onTestRunEnd() {
    if (!this.files.length) return;
    const wall = Date.now() - this.begin;
    const tiers = new Map();
    for (const f of this.files) {
      const t = tiers.get(f.tier) ?? { files: 0, tests: 0, ms: 0, from: Infinity, to: 0 };
      t.files += 1;
      t.tests += f.tests;
      t.ms += f.ms;
      t.from = Math.min(t.from, f.from);
      t.to = Math.max(t.to, f.to);
      tiers.set(f.tier, t);
    }
    const lines = [`== where the test time went (${clock(wall)} in all; file times are summed over the workers)`];
    lines.push(`${'tier'.padEnd(12)}${'files'.padStart(6)}${'tests'.padStart(7)}${'file time'.padStart(12)}   ran`);
    for (const [tier, t] of [...tiers].sort((a, b) => a[1].from - b[1].from)) {
      lines.push(`${tier.padEnd(12)}${String(t.files).padStart(6)}${String(t.tests).padStart(7)}${seconds(t.ms).padStart(12)}   ${clock(t.from)}-${clock(t.to)}`);
    }
    lines.push('slowest files:');
    for (const f of [...this.files].sort((a, b) => b.ms - a.ms).slice(0, 10)) {
      lines.push(`${seconds(f.ms).padStart(9)}  ${f.tier.padEnd(12)}${f.file}${f.state === 'failed' ? ' (failed)' : ''}`);
    }
    process.stderr.write(`\n${lines.join('\n')}\n`);
    const out = path.join(this.root, '.run', 'test-times.json');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ wallMs: wall, files: this.files }, null, 2));
  }
}
