import { readFile } from 'node:fs/promises';

const statusField = (status: string, field: string): number | undefined => {
  const kib = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status)?.[1];
  return kib === undefined ? undefined : Number(kib) / 1024;
};

/** Resident set size of a process in MiB, from /proc/<pid>/status (Linux). */
export async function rssMiB(pid: number): Promise<number> {
  const rss = statusField(await readFile(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
  if (rss === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return rss;
}

/**
 * What a process's resident memory is made of (MiB, /proc/<pid>/status): anonymous memory (the V8 heap, buffers,
 * malloc) versus file-backed pages (the node binary and shared libraries, which the kernel can drop and share).
 */
export async function rssBreakdown(pid: number): Promise<string> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const part = (field: string) => (statusField(status, field) ?? 0).toFixed(0);
  return `RSS ${part('VmRSS')} MiB = anonymous ${part('RssAnon')} + file-backed ${part('RssFile')} + shared memory ${part('RssShmem')}; peak ${part('VmHWM')} MiB`;
}

/**
 * What the V8 heap holds, from a process's Prometheus metrics (prom-client's default metrics): the size of each
 * heap space (committed, MiB; used in brackets) and the memory held outside it by Buffers and other external
 * objects. Set against the anonymous RSS, the rest is native memory (malloc, thread stacks, code the V8 heap
 * does not count).
 */
export async function heapBreakdown(metricsUrl: string): Promise<string> {
  const text = await (await fetch(metricsUrl)).text();
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const spaces = new Map<string, { total: number; used: number }>();
  for (const [, kind, labels, value] of text.matchAll(/^nodejs_heap_space_size_(total|used)_bytes\{([^}]*)\} (\S+)$/gm)) {
    const space = /space="(\w+)"/.exec(labels!)?.[1] ?? 'unknown';
    const entry = spaces.get(space) ?? { total: 0, used: 0 };
    entry[kind as 'total' | 'used'] = Number(value);
    spaces.set(space, entry);
  }
  const heapTotal = [...spaces.values()].reduce((sum, s) => sum + s.total, 0);
  const shown = [...spaces.entries()].filter(([, s]) => s.total >= 1024 * 1024).map(([name, s]) => `${name.replace(/_space$/, '')} ${mib(s.total)} (${mib(s.used)})`);
  const external = Number(/^nodejs_external_memory_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1] ?? NaN);
  return `V8 heap ${mib(heapTotal)} MiB = ${shown.join(' + ')}; external (Buffers) ${Number.isNaN(external) ? 'unknown' : mib(external)} MiB`;
}
