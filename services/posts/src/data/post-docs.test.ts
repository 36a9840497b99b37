/**
 * A post replaced by the store (`replace`, which hands its document to the driver as it is) is stored
 * exactly as Mongoose would have stored it after casting it against the schema: the same fields, values
 * and types, whichever optional fields the post has.
 */
import { randomBytes } from 'node:crypto';
import { connectMongo, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../domain/model.js';
import { aPost } from './__fixtures__/posts.js';
import { MongoPostsStore } from './mongo-store.js';
import { toDoc, toPost, type PostDoc } from './post-docs.js';

let connection: Connection;
let store: MongoPostsStore;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_post_docs_${randomBytes(4).toString('hex')}`);
  store = new MongoPostsStore(connection);
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

const at = new Date('2026-01-01T00:00:00Z');
const bare = aPost({ id: 1, workspaceId: 5, updatedAt: at });
const full: Post = {
  ...bare,
  id: 2,
  origin: { requestId: 'req_1', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
  status: 'partial',
  scheduledAt: at,
  postedAt: at,
  failedAt: at,
  postError: 'bluesky: refused',
  evergreenVariations: ['v1'],
  recycledFromId: 9,
  reviewedAt: at,
  reviewAction: 'approve',
  postContents: [{ id: 1, platform: 'twitter', body: 'x', contentType: 'text', position: 0, metadata: { alt: 'a' } }],
  postAccounts: [
    {
      id: 10,
      socialAccountId: 2,
      platform: 'twitter',
      username: 'u',
      platformStatus: 'posted',
      platformPostId: 'p',
      permalink: 'https://x.com/u/status/p',
      dubShortUrl: 'https://dub.sh/a',
      dubOriginalUrl: 'https://example.com',
    },
    {
      id: 11,
      socialAccountId: 3,
      platform: 'bluesky',
      username: 'v',
      platformStatus: 'failed',
      platformError: 'refused',
      // Counts Bluesky does not report (impressions, clicks) are null: stored and read back as null, never 0.
      postMetric: { impressions: null, likes: 2, replies: 3, reposts: 4, clicks: null, engagementRate: null, fetchedAt: at },
    },
  ],
};

describe('a replaced post', () => {
  it.each([
    ['with no optional field', bare],
    ['with every optional field', full],
  ])('%s is stored as Mongoose would cast it', async (_, post) => {
    const posts = connection.db!.collection<{ _id: number; updated_at?: Date }>('posts');
    const twin = { ...post, id: post.id + 1_000 };
    await posts.insertMany([
      { _id: post.id, updated_at: at },
      { _id: twin.id, updated_at: at },
    ]);
    const prior = { ...bare, id: post.id };
    expect(
      await store.replace(prior, post, {
        subject: 'posts.post.updated',
        msgId: `m-${post.id}-${randomBytes(3).toString('hex')}`,
        workspaceId: 5,
        postId: post.id,
        status: post.status,
        occurredAt: at,
      }),
    ).not.toBeNull();
    await store.models.Post.replaceOne({ _id: twin.id }, toDoc(twin));
    const [stored, cast] = await Promise.all([posts.findOne({ _id: post.id }), posts.findOne({ _id: twin.id })]);
    expect({ ...stored, _id: 0 }).toStrictEqual({ ...cast, _id: 0 });
  });
});

describe('a post metric', () => {
  it('keeps the counts the platform does not report as null when stored and read back', async () => {
    const post = { ...full, id: 3 };
    await store.models.Post.replaceOne({ _id: post.id }, toDoc(post), { upsert: true });
    const read = toPost((await connection.db!.collection('posts').findOne({ _id: post.id as never })) as unknown as PostDoc);
    expect(read.postAccounts[1]!.postMetric).toEqual({ impressions: null, likes: 2, replies: 3, reposts: 4, clicks: null, engagementRate: null, fetchedAt: at });
  });
});
