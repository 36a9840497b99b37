import type { Connection, mongo } from 'mongoose';
import { explainFind, type ExplainedPlan } from './store-backend.js';

/** The read part of one command a driver sent: the collection and the filter the server must evaluate. */
export interface IssuedRead {
  command: string;
  collection: string;
  filter: Record<string, unknown>;
}

type Doc = Record<string, unknown>;

/** The filters a command makes the server evaluate (a find's, a count's, an update's or delete's `q`, ...). */
function readsOf(event: mongo.CommandStartedEvent): IssuedRead[] {
  const c = event.command as Doc;
  const name = event.commandName;
  const collection = String(c[name]);
  const one = (filter: unknown): IssuedRead[] => [{ command: name, collection, filter: (filter ?? {}) as Doc }];
  switch (name) {
    case 'find':
      return one(c.filter);
    case 'count':
      return one(c.query);
    case 'findAndModify':
      return one(c.query);
    case 'update':
      return (c.updates as Doc[]).map((u) => ({ command: name, collection, filter: u.q as Doc }));
    case 'delete':
      return (c.deletes as Doc[]).map((d) => ({ command: name, collection, filter: d.q as Doc }));
    case 'aggregate': {
      const match = (c.pipeline as Doc[])[0]?.$match;
      return one(match);
    }
    default:
      return [];
  }
}

/** Runs `work` and answers what `pick` takes from each command the connection's driver sent to this database meanwhile. */
async function issuedDuring<T>(connection: Connection, work: () => Promise<unknown>, pick: (event: mongo.CommandStartedEvent) => T[]): Promise<T[]> {
  const client = connection.getClient();
  const seen: T[] = [];
  const dbName = connection.db?.databaseName;
  const listener = (event: mongo.CommandStartedEvent): void => {
    if (event.databaseName === dbName) seen.push(...pick(event));
  };
  client.on('commandStarted', listener);
  try {
    await work();
  } finally {
    client.off('commandStarted', listener);
  }
  return seen;
}

/**
 * Runs `work` and answers every read the connection's driver sent to the server meanwhile (needs
 * `monitorCommands`, which connectMongo sets): what a test explains to prove the work's queries are
 * served by an index. Taken from the wire, so a query changed in the code is the query explained.
 */
export function readsIssuedBy(connection: Connection, work: () => Promise<unknown>): Promise<IssuedRead[]> {
  return issuedDuring(connection, work, readsOf);
}

/**
 * Runs `work` and answers, in order, the collection named by each `command` command (`insert`, `find`...)
 * the connection's driver sent meanwhile (needs `monitorCommands`, as readsIssuedBy): what a test counts to prove that writes made at once share a
 * command, or that a read is not repeated.
 */
export function commandsIssuedBy(connection: Connection, command: string, work: () => Promise<unknown>): Promise<string[]> {
  return issuedDuring(connection, work, (event) => (event.commandName === command ? [String((event.command as Doc)[command])] : []));
}

/** Runs `work` and answers the name of every command the connection's driver sent to this database meanwhile, in order. */
export function commandNamesIssuedBy(connection: Connection, work: () => Promise<unknown>): Promise<string[]> {
  return issuedDuring(connection, work, (event) => [event.commandName]);
}

/** Each read explained (FerretDB on PostgreSQL): the plan PostgreSQL would run for its filter. */
export async function explainReads(connection: Connection, reads: IssuedRead[]): Promise<Array<IssuedRead & { plan: ExplainedPlan }>> {
  const out: Array<IssuedRead & { plan: ExplainedPlan }> = [];
  for (const r of reads) out.push({ ...r, plan: await explainFind(connection, r.collection, r.filter) });
  return out;
}

/**
 * The reads among `reads` that PostgreSQL would answer with a sequential scan (FerretDB on PostgreSQL),
 * one line each (command, collection, filter, plan), for a test to expect none.
 */
export async function sequentialScans(connection: Connection, reads: IssuedRead[]): Promise<string[]> {
  const explained = await explainReads(connection, reads);
  return explained.filter((e) => e.plan.sequentialScan).map((e) => `${e.command} ${e.collection} ${JSON.stringify(e.filter)}: ${e.plan.nodeTypes.join(' > ')}`);
}
