import { readFile } from 'node:fs/promises';

/** Resident set size of a process in MiB, from /proc/<pid>/status (Linux). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (!kib) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kib) / 1024;
}
