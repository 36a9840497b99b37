import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '@spa/nats';
import mongoose from 'mongoose';

/** Where the tests find the real infrastructure (scripts/infra starts it). */
export const TEST_INFRA = {
  mongoUrl: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017',
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/** A fresh name, unique per call: for databases, Redis prefixes and streams of one test. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

/** Drops databases created by a test. */
export async function dropDatabases(names: string[]): Promise<void> {
  const connection = mongoose.createConnection(TEST_INFRA.mongoUrl);
  try {
    await connection.asPromise();
    for (const name of names) await connection.useDb(name).dropDatabase();
  } finally {
    await connection.close();
  }
}

/** Deletes a durable JetStream consumer created by a test (absent: nothing to do). */
export async function deleteConsumer(stream: string, name: string): Promise<void> {
  const nc = await connectNats(TEST_INFRA.natsUrl, 'test-cleanup');
  try {
    await (await jetstreamManager(nc)).consumers.delete(stream, name).catch(() => undefined);
  } finally {
    await nc.drain();
  }
}

/** Removes the public events of a stack's namespace from the EVENTS stream (every stack's owners publish there). */
export async function purgeEvents(namespace: string): Promise<void> {
  const nc = await connectNats(TEST_INFRA.natsUrl, 'test-cleanup');
  try {
    await (await jetstreamManager(nc)).streams.purge('EVENTS', { filter: `events.${namespace}.>` }).catch(() => undefined);
  } finally {
    await nc.drain();
  }
}
