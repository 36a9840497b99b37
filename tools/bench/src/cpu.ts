/**
 * CPU time spent during a bench phase, per process, from Linux's /proc (user + system time): the bench's
 * own service processes by name, and the local store's processes (the FerretDB server; PostgreSQL's
 * backends, those that exited meanwhile counted through the postmaster's reaped-children total). On a
 * 2-core machine whose store shares the cores with every service, CPU per unit of work is the figure
 * that says what a change saved, steadier than wall time, which the machine's other work moves.
 */
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';

const TICKS_PER_SECOND = 100;
/** The local store's, broker's and cache's processes, by command name (PostgreSQL is counted apart). */
const SHARED = ['ferretdb', 'nats-server', 'redis-server'];

/** CPU seconds per name. */
export type CpuSnapshot = Record<string, number>;

interface ProcStat {
  comm: string;
  /** Own user + system time, ticks. */
  own: number;
  /** Reaped children's user + system time, ticks. */
  children: number;
}

async function procStat(pid: number): Promise<ProcStat | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  // The command name is in parentheses and may hold spaces: the fields after it are positional.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // After the name: state is field 3 of the man page, so utime (14) is index 11 here.
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return { comm, own: utime! + stime!, children: cutime! + cstime! };
}

async function allPids(): Promise<number[]> {
  return (await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map(Number);
}

/**
 * CPU seconds so far of the named processes (several pids under one name add up) and of the local
 * infrastructure: `ferretdb`, `nats-server`, `redis-server` and `postgres` (every backend alive now,
 * plus those the postmaster reaped).
 */
export async function cpuSnapshot(named: Array<{ name: string; pid: number }>): Promise<CpuSnapshot> {
  const out: CpuSnapshot = {};
  const add = (name: string, ticks: number) => (out[name] = (out[name] ?? 0) + ticks / TICKS_PER_SECOND);
  for (const { name, pid } of named) {
    const stat = await procStat(pid);
    if (stat) add(name, stat.own);
  }
  const stats = await Promise.all((await allPids()).map(async (pid) => ({ pid, stat: await procStat(pid) })));
  const postgres = stats.filter((s) => s.stat?.comm === 'postgres');
  const pids = new Set(postgres.map((s) => s.pid));
  for (const { stat } of stats) {
    if (stat && SHARED.includes(stat.comm)) add(stat.comm, stat.own);
  }
  for (const { pid, stat } of postgres) {
    // The postmaster is the postgres process whose parent is not a postgres process.
    const parent = Number((await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ')[1]);
    add('postgres', stat!.own + (pids.has(parent) ? 0 : stat!.children));
  }
  return out;
}

/** CPU seconds spent between two snapshots, per name (a process absent from `before` started meanwhile). */
export function cpuDelta(before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  return Object.fromEntries(Object.entries(after).map(([name, s]) => [name, Math.max(0, s - (before[name] ?? 0))]));
}

/** "total 12.3 (ferretdb 4.1, postgres 3.2, posts 2.0, …)" in milliseconds per unit, largest first. */
export function cpuPerUnit(delta: CpuSnapshot, units: number): string {
  const ms = (s: number) => ((s * 1_000) / units).toFixed(1);
  const entries = Object.entries(delta).sort((a, b) => b[1] - a[1]);
  const total = entries.reduce((sum, [, s]) => sum + s, 0);
  // Processes that spent less than 0.05 ms per unit are left out of the list (not of the total).
  const shown = entries.filter(([, s]) => ms(s) !== '0.0');
  return `${ms(total)} (${shown.map(([name, s]) => `${name} ${ms(s)}`).join(', ')})`;
}

/**
 * How many of the machine's cores the measured processes kept busy on average over `seconds`: near the core count,
 * the run is bound by CPU; well below it, something waits (a lease, a timer, a queue that runs dry).
 */
export function coresBusy(delta: CpuSnapshot, seconds: number): string {
  const total = Object.values(delta).reduce((sum, s) => sum + s, 0);
  return `${(total / seconds).toFixed(2)} of ${availableParallelism()}`;
}
