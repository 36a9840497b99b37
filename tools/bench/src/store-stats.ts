/**
 * What the store did during a bench phase: commands sent by the bench's own service processes,
 * counted at their drivers (`store_commands_total` on each process's metrics port, the same figure on
 * MongoDB), and, when the store is FerretDB on PostgreSQL, the rows PostgreSQL read and the sequential
 * and index scans it ran on those processes' databases (pg_stat_user_tables of their schemas, so other
 * work on a shared machine is not counted).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface StoreSnapshot {
  commands: number;
  byCommand: Record<string, number>;
  /** Absent unless the store is FerretDB on PostgreSQL (and psql reaches it). */
  pg?: { rowsRead: number; seqScans: number; seqRowsRead: number; idxScans: number; idxRowsFetched: number };
}

/** The MONGO_DB of a running process (from its environment), if it has one. */
export async function databaseOf(pid: number): Promise<string | undefined> {
  const env = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  return env
    .split('\0')
    .find((v) => v.startsWith('MONGO_DB='))
    ?.slice('MONGO_DB='.length);
}

/** Ports a process listens on (Linux `ss`): its gRPC port and its metrics port. */
async function listeningPorts(pid: number): Promise<number[]> {
  const { stdout } = await run('ss', ['-ltnpH']);
  return stdout
    .split('\n')
    .filter((l) => l.includes(`pid=${pid},`))
    .map((l) => Number(/:(\d+)\s/.exec(l.split(/\s+/)[3] + ' ')?.[1]))
    .filter((p) => Number.isInteger(p) && p > 0);
}

async function commandsOf(pid: number): Promise<Record<string, number>> {
  for (const port of await listeningPorts(pid)) {
    const text = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) })
      .then((r) => (r.ok ? r.text() : ''))
      .catch(() => '');
    if (!text.includes('store_commands_total')) continue;
    const out: Record<string, number> = {};
    for (const m of text.matchAll(/^store_commands_total\{([^}]*)\} (\S+)$/gm)) {
      const command = /command="([^"]+)"/.exec(m[1] ?? '')?.[1] ?? '?';
      out[command] = (out[command] ?? 0) + Number(m[2]);
    }
    return out;
  }
  return {};
}

async function psql(sql: string): Promise<string | undefined> {
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/ferretdb';
  return run('psql', [url, '-tAc', sql], { timeout: 30_000 })
    .then((r) => r.stdout.trim())
    .catch(() => undefined);
}

/**
 * Refreshes PostgreSQL's planner statistics of the given databases' tables (FerretDB on PostgreSQL; a no-op
 * elsewhere). A history seeded in one go (200,000 posts in a minute) is otherwise planned as the empty tables
 * they were until autovacuum analyzes them, minutes later: measured, the scheduler's due scans then
 * read the whole posts and dispatches tables sequentially (5.7 million rows for 900 targets), which says
 * nothing about a store that grew over time. What autovacuum would have done by then, done now.
 */
export async function analyzeDatabases(databases: string[]): Promise<void> {
  const schemas = databases.map((d) => `'${d.replace(/'/g, "''")}'`).join(',');
  if (!schemas) return;
  const tables = await psql(`select string_agg(format('%I.%I', schemaname, relname), ', ') from pg_stat_user_tables where schemaname in (${schemas})`);
  if (tables) await psql(`analyze ${tables}`);
}

/** A snapshot over the given processes (by pid) and databases. */
export async function storeSnapshot(pids: number[], databases: string[]): Promise<StoreSnapshot> {
  const byCommand: Record<string, number> = {};
  for (const pid of pids) for (const [k, v] of Object.entries(await commandsOf(pid))) byCommand[k] = (byCommand[k] ?? 0) + v;
  const commands = Object.values(byCommand).reduce((a, b) => a + b, 0);
  const schemas = databases.map((d) => `'${d.replace(/'/g, "''")}'`).join(',');
  const line = schemas
    ? await psql(`select coalesce(sum(seq_scan),0), coalesce(sum(seq_tup_read),0), coalesce(sum(idx_scan),0), coalesce(sum(idx_tup_fetch),0) from pg_stat_user_tables where schemaname in (${schemas})`)
    : undefined;
  if (!line) return { commands, byCommand };
  const [seqScans, seqRowsRead, idxScans, idxRowsFetched] = line.split('|').map(Number) as [number, number, number, number];
  return { commands, byCommand, pg: { rowsRead: seqRowsRead + idxRowsFetched, seqScans, seqRowsRead, idxScans, idxRowsFetched } };
}

/** What happened between two snapshots. */
export function storeDelta(before: StoreSnapshot, after: StoreSnapshot): StoreSnapshot {
  const byCommand: Record<string, number> = {};
  for (const [k, v] of Object.entries(after.byCommand)) {
    const d = v - (before.byCommand[k] ?? 0);
    if (d) byCommand[k] = d;
  }
  const pg =
    before.pg && after.pg
      ? {
          rowsRead: after.pg.rowsRead - before.pg.rowsRead,
          seqScans: after.pg.seqScans - before.pg.seqScans,
          seqRowsRead: after.pg.seqRowsRead - before.pg.seqRowsRead,
          idxScans: after.pg.idxScans - before.pg.idxScans,
          idxRowsFetched: after.pg.idxRowsFetched - before.pg.idxRowsFetched,
        }
      : undefined;
  return { commands: after.commands - before.commands, byCommand, ...(pg ? { pg } : {}) };
}

/** PostgreSQL publishes a backend's table statistics within about a second of its work, an idle one's within 10 s. */
export const settleStats = (): Promise<void> => new Promise((r) => setTimeout(r, 11_000));

/** The per-unit figures of a delta, as table cells: commands, top commands, rows read, seq/idx scans. */
export function perUnit(delta: StoreSnapshot, units: number): { commands: string; top: string; rows: string; scans: string } {
  const top = Object.entries(delta.byCommand)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, v]) => `${k} ${(v / units).toFixed(2)}`)
    .join(', ');
  return {
    commands: (delta.commands / units).toFixed(2),
    top,
    rows: delta.pg ? (delta.pg.rowsRead / units).toFixed(0) : 'n/a (not FerretDB on PostgreSQL)',
    scans: delta.pg ? `${delta.pg.seqScans} seq (${delta.pg.seqRowsRead} rows) / ${delta.pg.idxScans} idx (${delta.pg.idxRowsFetched} rows)` : 'n/a',
  };
}
