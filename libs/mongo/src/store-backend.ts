import type { Connection } from 'mongoose';

/** Which server is behind the MongoDB wire: MongoDB itself, or FerretDB on one of its backends. */
export type StoreBackend = 'mongodb' | 'ferretdb-postgresql' | 'ferretdb-sqlite' | 'ferretdb';

/** One PostgreSQL plan node (FerretDB on PostgreSQL answers `explain` with PostgreSQL's plan). */
interface PgPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PgPlanNode[];
}

export interface ExplainedPlan {
  /** Every node type of the plan, depth first (`Seq Scan`, `Bitmap Index Scan`, `Index Scan`, ...). */
  nodeTypes: string[];
  /** The indexes the plan reads. */
  indexes: string[];
  /** True when the plan reads the whole table. */
  sequentialScan: boolean;
  /** The server's answer, for a failure message. */
  raw: unknown;
}

/**
 * Detects the server: FerretDB names itself in `buildInfo` (`ferretdbVersion`), and its `explain` of a
 * find on an existing collection holds PostgreSQL's plan (`Plan` with `Node Type`) on the PostgreSQL
 * backend, SQLite's rows on the SQLite one. `ferretdb` when the database has no collection to explain.
 */
export async function storeBackend(connection: Connection): Promise<StoreBackend> {
  const db = connection.db;
  if (!db) throw new Error('not connected');
  const info = await db.admin().command({ buildInfo: 1 });
  if (!('ferretdbVersion' in info)) return 'mongodb';
  const [collection] = await db.listCollections({}, { nameOnly: true }).toArray();
  if (!collection) return 'ferretdb';
  const explained = await db.command({ explain: { find: collection.name, filter: { _id: 1 } } });
  const planner = (explained as { queryPlanner?: unknown }).queryPlanner;
  if (planner && typeof planner === 'object' && 'Plan' in planner) return 'ferretdb-postgresql';
  if (Array.isArray(planner)) return 'ferretdb-sqlite';
  return 'ferretdb';
}

/**
 * `explain` of a find through the driver, read as PostgreSQL's plan (FerretDB on PostgreSQL only; the
 * tests that use it check the backend first).
 */
export async function explainFind(connection: Connection, collection: string, filter: Record<string, unknown>, opts: { sort?: Record<string, 1 | -1>; limit?: number } = {}): Promise<ExplainedPlan> {
  const db = connection.db;
  if (!db) throw new Error('not connected');
  const raw = await db.command({ explain: { find: collection, filter, ...(opts.sort ? { sort: opts.sort } : {}), ...(opts.limit ? { limit: opts.limit } : {}) } });
  const root = (raw as { queryPlanner?: { Plan?: PgPlanNode } }).queryPlanner?.Plan;
  if (!root) throw new Error(`explain of ${collection} returned no PostgreSQL plan: ${JSON.stringify(raw)}`);
  const nodes: PgPlanNode[] = [];
  const walk = (n: PgPlanNode): void => {
    nodes.push(n);
    for (const child of n.Plans ?? []) walk(child);
  };
  walk(root);
  const nodeTypes = nodes.map((n) => n['Node Type']);
  return { nodeTypes, indexes: nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])), sequentialScan: nodeTypes.includes('Seq Scan'), raw };
}
