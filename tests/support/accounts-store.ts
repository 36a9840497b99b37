import { randomBytes } from 'node:crypto';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { createSecretBox } from '@spa/secret-box';
import { MongoApiKeys } from '../../services/accounts/src/data/api-keys.js';
import { MongoCustomRules } from '../../services/accounts/src/data/custom-rules.js';
import { MongoIdSequences } from '../../services/accounts/src/data/ids.js';
import { registerModels, type AccountsModels } from '../../services/accounts/src/data/models.js';
import { MongoPostingSchedules } from '../../services/accounts/src/data/posting-schedules.js';
import { MongoPreferences } from '../../services/accounts/src/data/preferences.js';
import { MongoSites } from '../../services/accounts/src/data/sites.js';
import { MongoSocialAccounts } from '../../services/accounts/src/data/social-accounts.js';
import { MongoMemberships, MongoUsers, MongoWorkspaces } from '../../services/accounts/src/data/workspaces.js';
import { type AccountsDeps } from '../../services/accounts/src/domain/ports.js';

/** The accounts repositories on a fresh database of the real MongoDB-compatible server, for their own tests (composed as main.ts does). */
export async function openAccountsStore(prefix: string): Promise<{ connection: Connection; models: AccountsModels; deps: AccountsDeps; close(): Promise<void> }> {
  const connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `${prefix}_${randomBytes(4).toString('hex')}`);
  const models = registerModels(connection);
  const preferences = new MongoPreferences(models);
  await syncIndexes(connection);
  return {
    connection,
    models,
    deps: {
      ids: new MongoIdSequences(connection),
      workspaces: new MongoWorkspaces(models),
      users: new MongoUsers(models),
      memberships: new MongoMemberships(models),
      apiKeys: new MongoApiKeys(models),
      sites: new MongoSites(models),
      socialAccounts: new MongoSocialAccounts(models),
      schedules: new MongoPostingSchedules(models),
      preferences,
      customRules: new MongoCustomRules(models),
      clock: { now: () => new Date() },
      secrets: createSecretBox('t'.repeat(32)),
    },
    close: async () => {
      await connection.dropDatabase();
      await connection.close();
    },
  };
}
