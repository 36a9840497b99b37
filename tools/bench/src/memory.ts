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
