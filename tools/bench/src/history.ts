/**
 * A store's history for the publishing bench: `posts` published posts of another workspace with what
 * publishing them left behind (3 targets each, one attempt per target, a dispatch claim, created and
 * terminal outbox entries), written straight into the bench stack's databases, so the hot queries run
 * against collections the size a store reaches after a while in production. The claims and entries are as
 * stores kept them before finished ones were removed (`job_sent: true`, `state: 'sent'`): history that
 * upgraded stores hold and that no hot query may read.
 */
import mongoose from 'mongoose';
import { TEST_INFRA } from '@spa/testing';

const BATCH = 1_000;
const HISTORY_WORKSPACE = 900_000_000;

export async function seedHistory({ postsDb, publisherDb, posts }: { postsDb: string; publisherDb: string; posts: number }): Promise<void> {
  if (posts <= 0) return;
  const connection = await mongoose.createConnection(TEST_INFRA.mongoUrl).asPromise();
  try {
    const pdb = connection.useDb(postsDb).db!;
    const adb = connection.useDb(publisherDb).db!;
    const at = new Date(Date.now() - 86_400_000);
    // Ids far above the bench's own (its id allocator starts at 1).
    const base = 500_000_000;
    for (let start = 0; start < posts; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, posts - start) }, (_, i) => base + start + i);
      const accounts = (id: number) =>
        [0, 1, 2].map((k) => ({ id: id * 3 + k, social_account_id: 7_000 + k, platform: 'mastodon', username: 'history', platform_status: 'posted', platform_post_id: `h${id}-${k}` }));
      await pdb.collection<{ _id: number }>('posts').insertMany(
        ids.map((id) => ({
          _id: id,
          workspace_id: HISTORY_WORKSPACE + (id % 50),
          status: 'posted',
          flexible: false,
          scheduled_at: at,
          posted_at: at,
          disconnected: false,
          source: 'api',
          recurrence_jitter_enabled: false,
          evergreen: false,
          evergreen_variations: [],
          created_at: at,
          updated_at: at,
          body: `history ${id}`,
          dry_run: false,
          post_contents: [],
          post_accounts: accounts(id),
        })),
        { ordered: false },
      );
      await pdb.collection<{ _id: string }>('outbox').insertMany(
        ids.flatMap((id) =>
          ['created', 'terminal'].map((kind) => ({
            _id: `history-${kind}-${id}`,
            subject: `posts.post.${kind}`,
            payload: '',
            post_id: id,
            post_updated_at: at,
            state: 'sent',
            created_at: at,
            sent_at: at,
          })),
        ),
        { ordered: false },
      );
      await pdb.collection<{ _id: string }>('dispatches').insertMany(
        ids.map((id) => ({ _id: `${id}:${at.getTime()}`, workspace_id: HISTORY_WORKSPACE, post_id: id, claimed_at: at, job_sent: true, job_sent_at: at })),
        { ordered: false },
      );
      await adb.collection<{ _id: string }>('attempts').insertMany(
        ids.flatMap((id) =>
          accounts(id).map((a) => ({ _id: `${a.id}:1`, post_account_id: a.id, n: 1, started_at: at, outcome: { kind: 'posted', platformPostId: a.platform_post_id, permalink: '' } })),
        ),
        { ordered: false },
      );
      if (start % 20_000 === 0) process.stderr.write(`bench: history ${start + ids.length}/${posts}\n`);
    }
  } finally {
    await connection.close();
  }
}

/**
 * A webhooks store's history: `deliveries` finished deliveries of other webhooks, each with its attempt,
 * so the delivery path's lookups run against collections the size they reach in production (and
 * PostgreSQL plans them from statistics of that size, as it does once autovacuum has seen a table).
 */
export async function seedWebhookHistory(webhooksDb: string, deliveries: number): Promise<void> {
  if (deliveries <= 0) return;
  const connection = await mongoose.createConnection(TEST_INFRA.mongoUrl).asPromise();
  try {
    const db = connection.useDb(webhooksDb).db!;
    const at = new Date(Date.now() - 86_400_000);
    for (let start = 0; start < deliveries; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, deliveries - start) }, (_, i) => `history-${start + i}`);
      await db.collection<{ _id: string }>('deliveries').insertMany(
        ids.map((id, i) => ({
          _id: id,
          webhook_id: 900_000_000 + (i % 100),
          workspace_id: HISTORY_WORKSPACE + (i % 100),
          event: 'post.published',
          source_key: id,
          payload: '{}',
          status: 'succeeded',
          attempts: 1,
          attempt_limit: 8,
          created_at: at,
          finished_at: at,
          last_status_code: 200,
        })),
        { ordered: false },
      );
      await db.collection<{ _id: string }>('attempts').insertMany(
        ids.map((id) => ({ _id: `${id}:1`, delivery_id: id, attempt: 1, claimed_at: at, claimed_by: 'history', outcome: { ok: true, status_code: 200, duration_ms: 5 } })),
        { ordered: false },
      );
    }
  } finally {
    await connection.close();
  }
}

/**
 * `posts` scheduled posts of one workspace, post i due at `dueOf(i)`, each to the given accounts, written
 * straight into the posts database as the service stores them (ids far above the service's own), for a
 * run larger than creating posts through the API allows here (~150 ms a post).
 */
export async function seedDuePosts({
  postsDb,
  workspaceId,
  accounts,
  posts,
  dueOf,
  firstId = 600_000_000,
}: {
  postsDb: string;
  workspaceId: number;
  accounts: Array<{ id: number; platform: string; username: string }>;
  posts: number;
  dueOf: (i: number) => Date;
  /** The first post's id (the next ones follow): far above the service's own. */
  firstId?: number;
}): Promise<void> {
  const connection = await mongoose.createConnection(TEST_INFRA.mongoUrl).asPromise();
  try {
    const db = connection.useDb(postsDb).db!;
    const now = new Date();
    const base = firstId;
    for (let start = 0; start < posts; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, posts - start) }, (_, i) => start + i);
      await db.collection<{ _id: number }>('posts').insertMany(
        ids.map((i) => ({
          _id: base + i,
          workspace_id: workspaceId,
          status: 'scheduled',
          flexible: false,
          scheduled_at: dueOf(i),
          due_second: Math.floor(dueOf(i).getTime() / 1000),
          disconnected: false,
          source: 'api',
          recurrence_jitter_enabled: false,
          evergreen: false,
          evergreen_variations: [],
          created_at: now,
          updated_at: now,
          body: `bench ${i}`,
          dry_run: false,
          // What the service composes from a body: one text content per targeted platform.
          post_contents: accounts.map((a, k) => ({ id: 2_000_000_000 + i * accounts.length + k, platform: a.platform, body: `bench ${i}`, content_type: 'text', position: 0, metadata: {} })),
          post_accounts: accounts.map((a, k) => ({ id: 2_000_000_000 + i * accounts.length + k, social_account_id: a.id, platform: a.platform, username: a.username })),
        })),
        { ordered: false },
      );
    }
  } finally {
    await connection.close();
  }
}
