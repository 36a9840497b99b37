/**
 * How `scripts/infra` runs the local store (FerretDB 1.24 on PostgreSQL only; docs/local-store.md, "How
 * `scripts/infra` runs FerretDB on PostgreSQL").
 *
 * It keeps using its indexes as a collection grows.
 * FerretDB sends every find as a prepared statement in which even the field name is a parameter
 * (`SELECT _jsonb FROM t WHERE _jsonb->$1 @> $2`). A generic plan of that statement can use no
 * expression index, so it is a sequential scan. With PostgreSQL's default `plan_cache_mode = auto` a
 * connection switches to the generic plan after five runs when the table is small (a new collection: a
 * test stack's, a bench's) and keeps it while the table grows, until the next ANALYZE: the bench saw
 * analytics' due-fetch lookups read its whole 240,000-row schedule 41 times in two minutes. `scripts/infra`
 * sets `force_custom_plan` on the `ferretdb` database, so every run is planned with its values. This test
 * runs FerretDB's statement shape in a session of that database, as FerretDB's connections are.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, storeBackend, type Connection } from './index.js';

const run = promisify(execFile);
const PG_URL = process.env.FERRETDB_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/ferretdb';
const dbName = `t_store_settings_${randomBytes(4).toString('hex')}`;
let connection: Connection;
let backend: string;

/** Runs each statement in turn in one session of the `ferretdb` database; answers what they printed. */
const psql = async (...statements: string[]): Promise<string> =>
  (await run('psql', [PG_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...statements.flatMap((s) => ['-c', s])], { timeout: 30_000 })).stdout.trim();

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', dbName);
  const fetches = connection.db!.collection<{ _id: string; slot: number }>('fetches');
  await fetches.createIndex({ slot: 1 });
  // A new collection: a few documents, and PostgreSQL's statistics say so.
  await fetches.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `f${i}`, slot: i % 5 })));
  backend = await storeBackend(connection);
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

describe('how scripts/infra runs the local store (FerretDB on PostgreSQL)', () => {
  it('an equality find still uses its index after the table grew under a prepared statement', async (ctx) => {
    if (backend !== 'ferretdb-postgresql') ctx.skip();
    const table = await psql(`select format('%I.%I', schemaname, tablename) from pg_tables where schemaname = '${dbName}' and tablename like 'fetches%'`);
    expect(table).not.toBe('');
    // Six runs while the table is small (none matches, so nothing is printed), then the table grows.
    const runs = Array.from({ length: 6 }, () => `execute due('slot', '99')`);
    const plan = await psql(
      `analyze ${table}`,
      `prepare due(text, jsonb) as select _jsonb from ${table} where _jsonb->$1 @> $2`,
      ...runs,
      `insert into ${table} select jsonb_build_object('_id', 'g' || i, 'slot', 5 + i % 500) from generate_series(1, 20000) i`,
      `explain (format json) execute due('slot', '99')`,
    );
    expect(plan).not.toContain('"Seq Scan"');
    expect(plan).toContain('"Bitmap Index Scan"');
  });

  it("FerretDB's connections to PostgreSQL are not encrypted (loopback; TLS cost ~9 % of its CPU)", async (ctx) => {
    if (backend !== 'ferretdb-postgresql') ctx.skip();
    const [connections, encrypted] = (
      await psql(`select count(*), count(*) filter (where s.ssl) from pg_stat_activity a join pg_stat_ssl s using (pid)
                  where a.datname = 'ferretdb' and a.backend_type = 'client backend' and a.pid <> pg_backend_pid()`)
    )
      .split('|')
      .map(Number);
    expect(connections).toBeGreaterThan(0); // this file's own commands went through FerretDB
    expect(encrypted).toBe(0);
  });
});
