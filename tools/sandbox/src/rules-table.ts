import type { SandboxMediaRule } from './media/rules.js';
import type { SandboxPlatform } from './router.js';

const BEGIN = '<!-- rules-table:begin (made from the stand-ins: node tools/sandbox/dist/write-rules-table.js) -->';
const END = '<!-- rules-table:end -->';

const mb = (bytes: number) => (bytes >= 1e9 ? `${+(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${+(bytes / 1e6).toFixed(2)} MB` : `${+(bytes / 1e3).toFixed(1)} KB`);

/** One media rule in words: types, size, pixel bounds, aspect ratios, duration, frame rate, codecs. */
export function describeMediaRule(rule: SandboxMediaRule): string {
  const parts = [rule.types.join(', '), `≤ ${mb(rule.max_bytes)}`];
  if (rule.min_width !== undefined || rule.min_height !== undefined) parts.push(`min ${rule.min_width ?? '?'}x${rule.min_height ?? '?'} px`);
  if (rule.max_width !== undefined || rule.max_height !== undefined) parts.push(`max ${rule.max_width ?? '?'}x${rule.max_height ?? '?'} px`);
  if (rule.max_pixels !== undefined) parts.push(`≤ ${rule.max_pixels} pixels`);
  if (rule.min_aspect !== undefined || rule.max_aspect !== undefined) parts.push(`aspect ${rule.min_aspect ?? '0'}–${rule.max_aspect ?? '∞'}`);
  if (rule.min_duration_s !== undefined || rule.max_duration_s !== undefined) parts.push(`${rule.min_duration_s ?? 0}–${rule.max_duration_s ?? '∞'} s`);
  if (rule.min_fps !== undefined || rule.max_fps !== undefined) parts.push(`${rule.min_fps ?? 0}–${rule.max_fps ?? '∞'} fps`);
  if (rule.video_codecs) parts.push(`video ${rule.video_codecs.join('/')}`);
  if (rule.audio_codecs) parts.push(`audio ${rule.audio_codecs.join('/')}`);
  if (rule.max_frames !== undefined) parts.push(rule.max_frames === 1 ? 'no animation' : `≤ ${rule.max_frames} frames`);
  return parts.join('; ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The README's rule table: one row per rule a stand-in enforces, with the page that documents it. */
export function rulesTable(platforms: readonly SandboxPlatform[]): string {
  const rows = ['| Platform | Rule | Source |', '|---|---|---|'];
  for (const platform of [...platforms].sort((a, b) => a.name.localeCompare(b.name))) {
    const rules = platform.rules;
    for (const [kind, rule] of Object.entries(rules?.media ?? {})) rows.push(`| ${platform.name} | ${kind}: ${cell(describeMediaRule(rule))} | ${rule.source} |`);
    for (const { rule, source } of rules?.other ?? []) rows.push(`| ${platform.name} | ${cell(rule)} | ${source} |`);
  }
  return [BEGIN, ...rows, END].join('\n');
}

/** `readme` with its rule table replaced by (or, when it has none, ended with) the table made from `platforms`. */
export function withRulesTable(readme: string, platforms: readonly SandboxPlatform[]): string {
  const table = rulesTable(platforms);
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1) return `${readme.trimEnd()}\n\n## Rules each stand-in enforces\n\n${table}\n`;
  return readme.slice(0, start) + table + readme.slice(end + END.length);
}
