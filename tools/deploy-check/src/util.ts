import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Collects every problem found; each is printed as `file[:line]: message`. */
export class Problems {
  readonly list: string[] = [];
  add(where: string, message: string): void {
    this.list.push(`${where}: ${message}`);
  }
}

/** One parsed YAML document: `where` is `file:line` of its first node, for messages. */
export interface YamlDoc {
  file: string;
  where: string;
  value: unknown;
}

/** Paths are repository-relative, with forward slashes, for messages and cross-references. */
export class Repo {
  /** Files that failed to parse: cross-file checks are skipped while any exist (they would only add noise). */
  readonly unparsable = new Set<string>();

  constructor(readonly root: string) {}

  abs(rel: string): string {
    return join(this.root, ...rel.split('/'));
  }

  rel(abs: string): string {
    return relative(this.root, abs).split(sep).join('/');
  }

  exists(rel: string): boolean {
    return existsSync(this.abs(rel));
  }

  isFile(rel: string): boolean {
    return this.exists(rel) && statSync(this.abs(rel)).isFile();
  }

  isDir(rel: string): boolean {
    return this.exists(rel) && statSync(this.abs(rel)).isDirectory();
  }

  read(rel: string): string {
    return readFileSync(this.abs(rel), 'utf8');
  }

  /**
   * Parses every document of a YAML file (YAML 1.2, plus `<<` merge keys as Compose allows).
   * Syntax errors, duplicate keys and warnings are problems; empty documents are dropped.
   */
  loadYaml(rel: string, problems: Problems): YamlDoc[] {
    const lineCounter = new LineCounter();
    const docs = parseAllDocuments(this.read(rel), { lineCounter, merge: true, uniqueKeys: true, prettyErrors: false });
    const out: YamlDoc[] = [];
    for (const doc of docs) {
      const issues = [...doc.errors, ...doc.warnings];
      for (const e of issues) {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        problems.add(`${rel}:${line}`, `YAML: ${e.message.split('\n')[0]} (column ${col})`);
      }
      if (issues.length > 0) {
        this.unparsable.add(rel);
        continue;
      }
      const start = doc.contents?.range[0] ?? doc.range[0];
      let value: unknown;
      try {
        value = doc.toJS({ maxAliasCount: 1000 });
      } catch (err) {
        // e.g. an alias to an undefined anchor, or a `<<` merge of a non-mapping
        problems.add(`${rel}:${lineCounter.linePos(start).line}`, `YAML: ${err instanceof Error ? err.message : String(err)}`);
        this.unparsable.add(rel);
        continue;
      }
      if (value === null || value === undefined) continue;
      out.push({ file: rel, where: `${rel}:${lineCounter.linePos(start).line}`, value });
    }
    return out;
  }
}

/**
 * For a Node entry point `X/dist/main.js` (as given to `node`), the TypeScript source it is built
 * from (`X/src/main.ts`); undefined when the path does not follow the `dist` <- `src` layout.
 */
export function sourceOfEntry(entry: string): string | undefined {
  const m = /^(?:\.\/|\/app\/)?((?:[\w.@-]+\/)*?)dist\/((?:[\w.@-]+\/)*[\w.@-]+)\.(m?js|cjs)$/.exec(entry);
  if (!m) return undefined;
  const ext = m[3] === 'mjs' ? 'mts' : m[3] === 'cjs' ? 'cts' : 'ts';
  return `${m[1]}src/${m[2]}.${ext}`;
}

/** The script argument of a `node [flags] script [args]` command, or undefined if argv is not a node command. */
export function nodeEntry(argv: string[]): string | undefined {
  if (argv[0] !== 'node' && argv[0] !== '/usr/local/bin/node') return undefined;
  return argv.slice(1).find((a) => !a.startsWith('-'));
}

/** Checks that a `node X/dist/main.js` command runs a file built from an existing `X/src/main.ts`. */
export function checkNodeCommand(repo: Repo, argv: string[], where: string, problems: Problems): string | undefined {
  const entry = nodeEntry(argv);
  if (!entry) {
    problems.add(where, `command ${JSON.stringify(argv)} is not \`node <workspace>/dist/main.js\``);
    return undefined;
  }
  const source = sourceOfEntry(entry);
  if (!source) {
    problems.add(where, `command runs ${entry}, which is not a <workspace>/dist/*.js build output`);
  } else if (!repo.isFile(source)) {
    problems.add(where, `command runs ${entry} but its source ${source} does not exist`);
  }
  return entry;
}
