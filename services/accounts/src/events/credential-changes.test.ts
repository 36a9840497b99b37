/**
 * Every write of an account's connection (reconnect, refresh, disconnect all go through
 * saveConnection) is announced on NATS once it landed, with the account's id.
 */
import { randomBytes } from 'node:crypto';
import { SocialAccountCredentialsChanged } from '@spa/contracts/events/v1/accounts';
import { createLogger } from '@spa/logger';
import { connectMongo, type Connection } from '@spa/mongo';
import { connectNats, credentialsChangedSubject, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MongoConnectionStore } from '../data/connection-store.js';
import { AnnouncingConnectionStore } from './credential-changes.js';

const namespace = `t_creds_${randomBytes(3).toString('hex')}`;
let connection: Connection;
let nc: NatsConnection;
beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_creds_${randomBytes(4).toString('hex')}`);
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'credential-changes-test');
});
afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
  await nc?.drain();
});

it('announces a saved connection after the write, naming the account', async () => {
  await connection
    .db!.collection<{ _id: number; [k: string]: unknown }>('social_accounts')
    .insertOne({ _id: 42, workspace_id: 1, platform: 'twitter', username: 'u', disconnected: false, created_at: new Date() });
  const store = new AnnouncingConnectionStore(new MongoConnectionStore(connection), nc, namespace, createLogger('credential-changes-test', 'error'));
  const heard: Array<{ id: number; disconnected: unknown }> = [];
  const done = new Promise<void>((resolve) =>
    nc.subscribe(credentialsChangedSubject(namespace), {
      max: 1,
      callback: (_err, m) => {
        const id = Number(SocialAccountCredentialsChanged.decode(m.data).socialAccountId);
        // Read when heard: the write has landed before the announcement.
        void connection
          .db!.collection<{ _id: number; disconnected: unknown }>('social_accounts')
          .findOne({ _id: id })
          .then((d) => (heard.push({ id, disconnected: d?.disconnected }), resolve()));
      },
    }),
  );
  await nc.flush();
  await store.saveConnection(42, { disconnected: true, disconnectedReason: 'test' });
  await done;
  expect(heard).toEqual([{ id: 42, disconnected: true }]);
});
