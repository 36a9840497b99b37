import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@spa/testing';
import { describe, expect, it } from 'vitest';

// The README is for users and stays short; every relative link in it and in docs/ leads to a file that
// exists, and a link to a heading (`page.md#heading`) to a heading that exists (GitHub's anchors).
const PAGES = [
  'README.md',
  ...readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** Markdown links outside code blocks and code spans: `[text](target)`. */
const linksOf = (markdown: string): string[] =>
  [
    ...markdown
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/\]\(([^)\s]+)\)/g),
  ].map((m) => m[1]!);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (file: string): string[] => [...read(file).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchorOf(m[1]!));

describe('README and docs/', () => {
  it('keep the README under 300 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThan(300);
  });

  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    const broken = linksOf(read(page))
      .filter((link) => !/^[a-z]+:/.test(link))
      .filter((link) => {
        const [target, anchor] = link.split('#') as [string, string | undefined];
        const file = target === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), target));
        const full = path.join(REPO_ROOT, file);
        if (!existsSync(full)) return true;
        if (anchor === undefined || statSync(full).isDirectory()) return false;
        return !anchorsOf(file).includes(anchor);
      });
    expect(broken).toEqual([]);
  });
});
