import { randomBytes } from 'node:crypto';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { createSecretBox } from '@spa/secret-box';
import { MongoAccountsStore } from '../../services/accounts/src/data/mongo-store.js';
import type { AccountsDeps } from '../../services/accounts/src/domain/ports.js';

/** The accounts store on a fresh database of the real MongoDB-compatible server, for the store's own tests. */
export async function openAccountsStore(prefix: string): Promise<{ connection: Connection; deps: AccountsDeps; close(): Promise<void> }> {
  const connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `${prefix}_${randomBytes(4).toString('hex')}`);
  const store = new MongoAccountsStore(connection);
  await syncIndexes(connection);
  return {
    connection,
    deps: { store, clock: { now: () => new Date() }, secrets: createSecretBox('t'.repeat(32)) },
    close: async () => {
      await connection.dropDatabase();
      await connection.close();
    },
  };
}
