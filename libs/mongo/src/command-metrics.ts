import { registry } from '@spa/telemetry';
import { Counter } from 'prom-client';
import type { Connection } from 'mongoose';

/**
 * Store commands sent by this process, by command name, counted at the driver (the MongoDB driver's
 * command monitoring): the same figure whether the server is MongoDB or FerretDB. A batched write is
 * one command, so this is the round-trip count the throughput work is measured by.
 */
export const storeCommands = new Counter({
  name: 'store_commands_total',
  help: 'Commands sent to the MongoDB-compatible store, by command name and collection',
  labelNames: ['command', 'collection'] as const,
  registers: [registry],
});

/** The collection a command works on (`find: 'posts'`, `getMore: <cursor>, collection: 'posts'`); empty for server commands. */
function collectionOf(command: Record<string, unknown>, name: string): string {
  const target = name === 'getMore' ? command.collection : command[name];
  return typeof target === 'string' ? target : '';
}

/** Counts every command the connection's driver starts (needs `monitorCommands: true`, set by connectMongo). */
export function countStoreCommands(connection: Connection): void {
  connection.getClient().on('commandStarted', (event) => storeCommands.inc({ command: event.commandName, collection: collectionOf(event.command, event.commandName) }));
}
