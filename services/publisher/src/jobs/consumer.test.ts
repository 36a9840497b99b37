/**
 * Publish jobs over real JetStream: a job's first delivery publishes the post the job carries, with no read
 * of it; a job delivered again (its first handling failed, or its publisher died) may have been carried out
 * already, so its post is read, and an ended post is left alone.
 */
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { platformCodec, postStatusCodec } from '@spa/contracts/codecs';
import { Post } from '@spa/contracts/posts/v1/posts';
import { PublishJob } from '@spa/contracts/events/v1/jobs';
import { createLogger } from '@spa/logger';
import { connectNats, ensureStream, jetstream, publishEvent, publishJobSubject, PUBLISH_JOBS_STREAM, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostToPublish, PublisherDeps } from '../domain/ports.js';
import { consumePublishJobs } from './consumer.js';

const namespace = `t_jobs_${randomBytes(3).toString('hex')}`;
let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'publish-jobs-test');
  await ensureStream(nc, PUBLISH_JOBS_STREAM);
});
afterAll(async () => {
  const jsm = nc && (await jetstreamManager(nc));
  await jsm?.consumers.delete(PUBLISH_JOBS_STREAM.name, `publisher-${namespace}`).catch(() => undefined);
  await jsm?.streams.purge(PUBLISH_JOBS_STREAM.name, { filter: publishJobSubject(namespace) }).catch(() => undefined);
  await nc?.drain();
});

it('publishes the post a job carries without reading it, and reads the post of a job delivered again', async () => {
  const calls: string[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const ended: PostToPublish = { workspaceId: 1, postId: 7, status: 'posted', dryRun: false, targets: [], partsFor: () => [] };
  const deps = {
    posts: {
      getPost: async (_: number, postId: number) => (calls.push(`read post ${postId}`), done(), ended),
      recordResults: async () => void calls.push('recorded'),
    },
    accounts: {
      // The first handling fails here, after the job's post was taken: the job is delivered again.
      targets: async () => {
        calls.push('accounts');
        throw new Error('accounts unavailable');
      },
      markDisconnected: async () => undefined,
    },
  } as unknown as PublisherDeps;
  const consumer = await consumePublishJobs(nc, deps, createLogger('publish-jobs-test', 'silent'), { namespace, concurrency: 1, ackWaitMs: 30_000, mediaBaseUrl: 'http://127.0.0.1:1/media' });
  const post = Post.fromPartial({
    id: 7,
    state: postStatusCodec.toProto('publishing'),
    body: 'carried',
    createdAt: new Date().toISOString(),
    postAccounts: [{ id: 70, socialAccountId: 3, platformKind: platformCodec.toProto('twitter'), username: 'u' }],
  });
  await publishEvent(jetstream(nc), publishJobSubject(namespace), PublishJob.encode({ workspaceId: 1, postId: 7, dispatchId: '7:1', post }).finish(), `7:1:${namespace}`);
  await finished;
  await consumer.stop();
  // First delivery: the carried post, straight to its targets' accounts (which failed). Again: read, ended, left alone.
  expect(calls).toEqual(['accounts', 'read post 7']);
});
