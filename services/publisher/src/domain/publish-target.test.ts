import { randomBytes } from 'node:crypto';
import { AppError } from '@spa/errors';
import { commandNamesIssuedBy, connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { PLATFORM_SANDBOXES, startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectors, sandboxBaseUrls } from '../connectors/registry.js';
import type { MediaFacts } from '@spa/platforms';
import { makeImage } from '@spa/testing/media';
import { ConnectorError, type PublishRequest } from '../connectors/types.js';
import { MongoAttemptStore } from '../data/attempt-store.js';
import type { MediaPort, PostToPublish, PublisherDeps, TargetOutcome } from './ports.js';
import { publishJob } from './publish-post.js';
import { publishTarget, publishTargets } from './publish-target.js';

let connection: Connection;
let sandbox: Sandbox;
let deps: PublisherDeps;
let sleeps: number[];
let nextTarget = 1;
// Time moves only when the code under test sleeps, so waits do not depend on how busy the machine is.
let now = Date.now();

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_pub_${randomBytes(4).toString('hex')}`);
  const attempts = new MongoAttemptStore(connection);
  await syncIndexes(connection);
  sandbox = await startSandbox(PLATFORM_SANDBOXES);
  deps = {
    posts: {
      getPost: async () => {
        throw new Error('not used');
      },
      recordResults: async () => undefined,
    },
    accounts: { targets: async () => [], markDisconnected: async () => undefined },
    attempts,
    connectors: connectors(sandboxBaseUrls(sandbox.url, ['twitter', 'telegram'])),
    clock: { now: () => new Date(now) },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    maxAttempts: 4,
    attemptLeaseMs: 60_000,
  };
});
afterAll(async () => {
  await sandbox.close();
  await connection.dropDatabase();
  await connection.close();
});
beforeEach(() => {
  sandbox.state.reset();
  sleeps = [];
  nextTarget += 1;
});

const request = (platform: 'twitter' | 'telegram', text: string): PublishRequest => ({
  target: { socialAccountId: 1, platform, username: 'acme', credentials: { access_token: 'sandbox-acme', chat_id: '-1001', channel_username: 'acme' } },
  parts: [{ body: text, contentType: 'text', position: 0, media: [] }],
});

describe('publishing one target (real attempt store, sandbox platforms)', () => {
  it('reconciles a lost answer instead of publishing again', async () => {
    sandbox.state.addFault('twitter', 'drop_after_accept');
    const outcome = await publishTarget(deps, nextTarget, request('twitter', 'once only'));
    expect(outcome).toMatchObject({ platformStatus: 'posted', platformPostId: sandbox.state.postsOf('twitter')[0]?.id });
    expect(sandbox.state.postsOf('twitter')).toHaveLength(1);
  });

  it('does not retry a lost answer on a platform that cannot be checked (Telegram)', async () => {
    sandbox.state.addFault('telegram', 'drop_after_accept');
    const outcome = await publishTarget(deps, nextTarget, request('telegram', 'maybe sent'));
    expect(outcome?.platformStatus).toBe('failed');
    expect(outcome?.platformError).toContain('never posted twice');
    expect(sandbox.state.postsOf('telegram')).toHaveLength(1);
  });

  it('retries transient failures with backoff and rate limits with the platform hint', async () => {
    sandbox.state.addFault('twitter', 'server_error', 1);
    sandbox.state.addFault('twitter', 'rate_limited', 1);
    const outcome = await publishTarget(deps, nextTarget, request('twitter', 'third time lucky'));
    expect(outcome?.platformStatus).toBe('posted');
    expect((await deps.attempts.attempts(nextTarget)).map((a) => a.outcome?.kind)).toEqual(['failed', 'failed', 'posted']);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(1000); // 1 s backoff after the 503
    expect(sleeps[1]).toBeGreaterThanOrEqual(1000); // Retry-After: 1 after the 429
    expect(sandbox.state.postsOf('twitter')).toHaveLength(1);
  });

  it('gives up after the last attempt, and a refused token is final at once', async () => {
    sandbox.state.addFault('twitter', 'server_error', 4);
    const exhausted = await publishTarget(deps, nextTarget, request('twitter', 'never'));
    expect(exhausted?.platformStatus).toBe('failed');
    expect(exhausted?.platformError).toMatch(/gave up after 4 attempts/);
    nextTarget += 1;
    sandbox.state.addFault('twitter', 'auth', 1);
    const refused = await publishTarget(deps, nextTarget, request('twitter', 'expired'));
    expect(refused).toMatchObject({ platformStatus: 'failed', disconnected: true });
    expect(await deps.attempts.attempts(nextTarget)).toHaveLength(1);
  });

  it('finishes the attempt of a publisher that died mid-call: found on the platform, it is not published again', async () => {
    const text = 'sent just before the crash';
    sandbox.state.createPost('twitter', 'acme', text);
    await deps.attempts.claim([{ postAccountId: nextTarget, n: 1, startedAt: new Date(Date.now() - 120_000) }]);
    const outcome = await publishTarget(deps, nextTarget, request('twitter', text));
    expect(outcome?.platformStatus).toBe('posted');
    expect(sandbox.state.postsOf('twitter')).toHaveLength(1);
    expect((await deps.attempts.attempts(nextTarget))[0]?.outcome?.kind).toBe('posted');
  });

  it('leaves a target alone while another publisher holds a fresh attempt', async () => {
    await deps.attempts.claim([{ postAccountId: nextTarget, n: 1, startedAt: new Date() }]);
    expect(await publishTarget(deps, nextTarget, request('twitter', 'held'))).toBeNull();
    expect(sandbox.state.postsOf('twitter')).toHaveLength(0);
  });
});

describe('a dry run of one target (preflight only)', () => {
  const image = (bytes: Buffer, contentType = 'image/png') => ({ r2Key: 'ws/1/a.png', type: 'image' as const, url: 'http://unused.invalid/a.png', read: async () => ({ bytes, contentType }) });
  const creates = () => sandbox.state.requests.filter((r) => r.creates);

  it('checks the credentials with the platform, reads the media, and sends nothing that publishes', async () => {
    const read: string[] = [];
    const req = request('twitter', 'only a rehearsal');
    req.parts[0]!.media = [{ ...image(Buffer.alloc(1000)), read: async () => (read.push('a'), { bytes: Buffer.alloc(1000), contentType: 'image/png' }) }];
    const outcome = await publishTarget(deps, nextTarget, req, 'dry_run');
    expect(outcome).toEqual({ postAccountId: nextTarget, platformStatus: 'dry_run', disconnected: false });
    expect(new Set(read)).toEqual(new Set(['a'])); // read (by the common checks and X's own: it tells a GIF from a still by the bytes)
    expect(sandbox.state.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /twitter/2/users/me']);
    expect(creates()).toEqual([]);
    expect(sandbox.state.posts).toEqual([]);
    expect(sandbox.state.media.size).toBe(0);
    // Done once: asking again answers the recorded outcome without another check.
    expect(await publishTarget(deps, nextTarget, req, 'dry_run')).toMatchObject({ platformStatus: 'dry_run' });
    expect(sandbox.state.requests).toHaveLength(1);
  });

  it('refuses media over the platform limit or of a type it does not take, and text that does not fit, naming each', async () => {
    const req = request('twitter', 'x'.repeat(281));
    req.parts[0]!.media = [image(Buffer.alloc(5_000_001)), image(Buffer.alloc(10), 'image/tiff')];
    const outcome = await publishTarget(deps, nextTarget, req, 'dry_run');
    expect(outcome?.platformStatus).toBe('failed');
    expect(outcome?.platformError).toContain('post_contents[0].body is 281 characters on twitter');
    expect(outcome?.platformError).toContain('5000001 bytes');
    expect(outcome?.platformError).toContain('image/tiff');
    expect(creates()).toEqual([]);
    expect(await deps.attempts.attempts(nextTarget)).toHaveLength(1); // a refusal is final
  });

  it('a refused token fails the target and disconnects the account, as a real publish would', async () => {
    const req = request('telegram', 'bad token');
    req.target = { ...req.target, credentials: { ...req.target.credentials, access_token: 'revoked' } };
    const outcome = await publishTarget(deps, nextTarget, req, 'dry_run');
    expect(outcome).toMatchObject({ platformStatus: 'failed', disconnected: true });
    expect(creates()).toEqual([]);
  });

  it('a dry run whose publisher died mid-check is checked again, never reconciled with the platform', async () => {
    await deps.attempts.claim([{ postAccountId: nextTarget, n: 1, startedAt: new Date(now - 120_000) }]);
    const outcome = await publishTarget(deps, nextTarget, request('telegram', 'no reconcile'), 'dry_run');
    expect(outcome?.platformStatus).toBe('dry_run');
    expect(creates()).toEqual([]);
  });
});

describe("a job's targets together (one claim insert, one outcome write)", () => {
  /** The store commands `work` sends, by name, in order. */
  const commandsOf = (work: () => Promise<unknown>): Promise<string[]> => commandNamesIssuedBy(connection, work);
  const targets = (texts: string[]) => texts.map((text) => ({ postAccountId: (nextTarget += 1), request: request('twitter', text) }));

  it('publishes new targets with one insert for their claims and one write for their outcomes', async () => {
    const job = targets(['a', 'b', 'c']);
    let outcomes: Awaited<ReturnType<typeof publishTargets>> = [];
    expect(await commandsOf(async () => (outcomes = await publishTargets(deps, job)))).toEqual(['insert', 'insert']);
    expect(outcomes.map((o) => o?.platformStatus)).toEqual(['posted', 'posted', 'posted']);
    expect(
      sandbox.state
        .postsOf('twitter')
        .map((p) => p.text)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    for (const t of job) expect((await deps.attempts.attempts(t.postAccountId)).map((a) => a.outcome?.kind)).toEqual(['posted']);
    // Delivered again (the ack was lost): every claim is taken, each target answers its recorded outcome, nothing is sent.
    expect((await publishTargets(deps, job)).map((o) => o?.platformPostId)).toEqual(outcomes.map((o) => o?.platformPostId));
    expect(sandbox.state.postsOf('twitter')).toHaveLength(3);
  });

  it('leaves a target another publisher holds, and publishes the others', async () => {
    const job = targets(['held', 'free']);
    await deps.attempts.claim([{ postAccountId: job[0]!.postAccountId, n: 1, startedAt: new Date(now) }]);
    expect((await publishTargets(deps, job)).map((o) => o?.platformStatus ?? null)).toEqual([null, 'posted']);
    expect(sandbox.state.postsOf('twitter').map((p) => p.text)).toEqual(['free']);
  });

  it('retries a first try that failed transiently as a single target', async () => {
    sandbox.state.addFault('twitter', 'server_error', 1);
    const job = targets(['one', 'two']);
    expect((await publishTargets(deps, job)).map((o) => o?.platformStatus)).toEqual(['posted', 'posted']);
    const tries = await Promise.all(job.map(async (t) => (await deps.attempts.attempts(t.postAccountId)).map((a) => a.outcome?.kind)));
    expect(tries.sort()).toEqual([['failed', 'posted'], ['posted']]);
    expect(sandbox.state.postsOf('twitter')).toHaveLength(2);
  });

  it('a publisher that died after the calls, before the outcomes were written: reconciled, never published again', async () => {
    const job = targets(['before the crash 1', 'before the crash 2']);
    const store = deps.attempts;
    const dying = {
      ...deps,
      attempts: { attempts: (id: number) => store.attempts(id), claim: store.claim.bind(store), touch: store.touch.bind(store), record: () => Promise.reject(new Error('killed')) },
    };
    await expect(publishTargets(dying, job)).rejects.toThrow('killed');
    expect(sandbox.state.postsOf('twitter')).toHaveLength(2);
    // Within the lease the attempts are the dead publisher's; after it, they are looked up on the platform.
    expect(await publishTargets(deps, job)).toEqual([null, null]);
    now += deps.attemptLeaseMs + 1;
    const outcomes = await publishTargets(deps, job);
    expect(outcomes.map((o) => o?.platformStatus)).toEqual(['posted', 'posted']);
    expect(outcomes.map((o) => o?.platformPostId).sort()).toEqual(
      sandbox.state
        .postsOf('twitter')
        .map((p) => p.id)
        .sort(),
    );
    expect(sandbox.state.postsOf('twitter')).toHaveLength(2);
  });
});

describe('a publish job', () => {
  const account = request('twitter', '').target;
  /** A publishing post with one X target (a fresh post account each time). */
  const publishingPost = (text: string): PostToPublish => ({
    workspaceId: 1,
    postId: nextTarget,
    status: 'publishing',
    dryRun: false,
    targets: [{ postAccountId: nextTarget, socialAccountId: account.socialAccountId, platform: 'twitter' }],
    partsFor: () => request('twitter', text).parts,
  });
  /** The deps with a posts service that serves `stored` (or answers NOT_FOUND) and keeps what it is told. */
  function withPosts(stored: PostToPublish | null) {
    const reads: number[] = [];
    const recorded: TargetOutcome[][] = [];
    const jobDeps: PublisherDeps = {
      ...deps,
      accounts: { targets: async () => [account], markDisconnected: async () => undefined },
      posts: {
        getPost: async (_, postId) => {
          reads.push(postId);
          if (!stored) throw new AppError('NOT_FOUND', `Post ${postId} not found`);
          return stored;
        },
        recordResults: async (_, __, outcomes) => void recorded.push(outcomes),
      },
    };
    return { jobDeps, reads, recorded };
  }

  it('publishes the post it carries without asking the posts service for it, and hands back the outcomes', async () => {
    const post = publishingPost('carried');
    const { jobDeps, reads, recorded } = withPosts(null);
    expect(await publishJob(jobDeps, { workspaceId: 1, postId: post.postId, dispatchId: 'd1', post })).toBe(true);
    expect(reads).toEqual([]);
    expect(sandbox.state.postsOf('twitter').map((p) => p.text)).toEqual(['carried']);
    expect(recorded).toEqual([[expect.objectContaining({ postAccountId: post.targets[0]!.postAccountId, platformStatus: 'posted' })]]);
  });

  it('reads the post when the job carries none: publishes one still publishing, and leaves one that ended or is gone', async () => {
    const post = publishingPost('read back');
    const publishing = withPosts(post);
    expect(await publishJob(publishing.jobDeps, { workspaceId: 1, postId: post.postId, dispatchId: 'd2' })).toBe(true);
    expect([publishing.reads, publishing.recorded.length]).toEqual([[post.postId], 1]);
    for (const stored of [{ ...post, status: 'posted' }, null]) {
      const ended = withPosts(stored);
      expect(await publishJob(ended.jobDeps, { workspaceId: 1, postId: post.postId, dispatchId: 'd2' })).toBe(true);
      expect([ended.reads, ended.recorded]).toEqual([[post.postId], []]);
    }
    expect(sandbox.state.postsOf('twitter').map((p) => p.text)).toEqual(['read back']);
  });
});

describe('media made to fit the platform before the attempt', () => {
  const creates = () => sandbox.state.requests.filter((r) => r.creates);
  const original = (bytes: Buffer) => ({
    r2Key: 'ws/1/2026/01/original.gif',
    type: 'image' as const,
    url: 'http://unused.invalid/original.gif',
    read: async () => ({ bytes, contentType: 'image/gif' }),
  });
  /** A media service whose variant is a real JPEG; `asked` counts its calls. */
  function mediaFitting(jpeg: Buffer, asked: string[]): MediaPort {
    return {
      prepare: async (item, platform, fit) => {
        asked.push(`${item.r2Key} ${platform} ${fit}`);
        const facts: MediaFacts = { kind: 'image', content_type: 'image/jpeg', bytes: jpeg.length, width: 320, height: 320, frames: 1 };
        return { r2Key: `${item.r2Key}.variants/0123456789abcdef.jpg`, type: 'image', url: 'http://unused.invalid/v.jpg', read: async () => ({ bytes: jpeg, contentType: 'image/jpeg' }), facts };
      },
    };
  }

  it('publishes the prepared variant with the post fit, and the platform receives it', async () => {
    const jpeg = await makeImage({ format: 'jpeg', width: 320, height: 320 });
    const gif = await makeImage({ format: 'gif', width: 320, height: 320, frames: 4 });
    const asked: string[] = [];
    const req = request('telegram', 'fitted');
    req.parts[0]!.media = [original(gif)];
    req.parts[0]!.options = { media_fit: 'crop' };
    const outcome = await publishTarget({ ...deps, media: mediaFitting(jpeg, asked) }, nextTarget, req);
    expect(outcome?.platformStatus).toBe('posted');
    expect(asked).toEqual(['ws/1/2026/01/original.gif telegram crop']);
    const [post] = sandbox.state.postsOf('telegram');
    expect(post?.media.map((m) => [m.content_type, m.bytes])).toEqual([['image/jpeg', jpeg.length]]);
  });

  it('a refusal from the media pipeline is final, in a dry run as in a publish, naming the rule; nothing is created', async () => {
    const refusing: MediaPort = {
      prepare: async () => {
        throw new ConnectorError('rejected', 'twitter: media ws/1/x.mp4 lasts 200 s; the maximum is 140 s (max_duration_s); a video is never cut on twitter');
      },
    };
    const req = request('twitter', 'too long');
    req.parts[0]!.media = [{ ...original(Buffer.alloc(10)), type: 'video' }];
    const dry = await publishTarget({ ...deps, media: refusing }, nextTarget, req, 'dry_run');
    nextTarget += 1;
    const real = await publishTarget({ ...deps, media: refusing }, nextTarget, req);
    for (const outcome of [dry, real]) expect(outcome).toMatchObject({ platformStatus: 'failed', platformError: expect.stringContaining('(max_duration_s)') });
    expect(dry?.platformError).toBe(real?.platformError);
    expect(creates()).toEqual([]);
    expect(await deps.attempts.attempts(nextTarget)).toHaveLength(1);
  });

  it('a media service that cannot answer now leaves the target to a later try, claiming nothing and never publishing without its media', async () => {
    let calls = 0;
    const jpeg = await makeImage({ format: 'jpeg', width: 320, height: 320 });
    const flaky: MediaPort = {
      prepare: async (item, platform, fit) => {
        calls += 1;
        if (calls === 1) throw new ConnectorError('transient', 'telegram: media could not be prepared now');
        return mediaFitting(jpeg, []).prepare(item, platform, fit);
      },
    };
    const req = request('telegram', 'after a retry');
    req.parts[0]!.media = [original(Buffer.alloc(10))];
    expect(await publishTarget({ ...deps, media: flaky }, nextTarget, req)).toBeNull();
    expect(await deps.attempts.attempts(nextTarget)).toEqual([]);
    expect(creates()).toEqual([]);
    // Telegram cannot be reconciled: had the attempt been claimed before preparing, this target could never be retried.
    const outcome = await publishTarget({ ...deps, media: flaky }, nextTarget, req);
    expect(outcome?.platformStatus).toBe('posted');
    expect(calls).toBe(2);
    expect(sandbox.state.postsOf('telegram').map((p) => p.media.map((m) => m.content_type))).toEqual([['image/jpeg']]);
  });

  it('a job prepares every target before claiming any, and a refused target ends without holding back the others', async () => {
    const jpeg = await makeImage({ format: 'jpeg', width: 320, height: 320 });
    const byPlatform: MediaPort = {
      prepare: async (item, platform, fit) => {
        if (platform === 'twitter') throw new ConnectorError('rejected', 'twitter: media is image/gif; accepted: nothing (test rule)');
        return mediaFitting(jpeg, []).prepare(item, platform, fit);
      },
    };
    const withMedia = (platform: 'twitter' | 'telegram') => {
      const req = request(platform, `job ${platform}`);
      req.parts[0]!.media = [original(Buffer.alloc(10))];
      return req;
    };
    const ids = [nextTarget, ++nextTarget];
    const outcomes = await publishTargets({ ...deps, media: byPlatform }, [
      { postAccountId: ids[0]!, request: withMedia('twitter') },
      { postAccountId: ids[1]!, request: withMedia('telegram') },
    ]);
    expect(outcomes.map((o) => o?.platformStatus)).toEqual(['failed', 'posted']);
    expect(outcomes[0]?.platformError).toContain('test rule');
    expect(sandbox.state.postsOf('twitter')).toEqual([]);
    expect(sandbox.state.postsOf('telegram')).toHaveLength(1);
  });

  it('the dry run checks the prepared facts against every bound of the platform rule', async () => {
    const wide: MediaPort = {
      prepare: async (item) => ({ ...item, facts: { kind: 'image', content_type: 'image/bmp', bytes: 6_000_000, width: 100, height: 100, frames: 1 } }),
    };
    const req = request('twitter', 'checked');
    req.parts[0]!.media = [original(Buffer.alloc(10))];
    const outcome = await publishTarget({ ...deps, media: wide }, nextTarget, req, 'dry_run');
    expect(outcome?.platformStatus).toBe('failed');
    expect(outcome?.platformError).toContain('is image/bmp; accepted:');
    expect(outcome?.platformError).toContain('is 6000000 bytes; the limit is');
  });

  it('a publish checks again when its time comes: media that no longer fits is refused naming the rule, and nothing reaches the platform', async () => {
    const tooLong: MediaPort = {
      prepare: async (item) => ({
        ...item,
        facts: { kind: 'video', content_type: 'video/mp4', bytes: 2_000_000, width: 1280, height: 720, duration_s: 200, fps: 30, video_codec: 'h264', audio_codec: 'aac' },
      }),
    };
    const req = request('twitter', 'scheduled long ago');
    req.parts[0]!.media = [{ ...original(Buffer.alloc(10)), type: 'video' }];
    const outcome = await publishTarget({ ...deps, media: tooLong }, nextTarget, req, 'publish');
    expect(outcome?.platformStatus).toBe('failed');
    expect(outcome?.platformError).toContain('lasts 200 s; the maximum is');
    expect(sandbox.state.requests.filter((r) => r.creates || r.method === 'POST')).toEqual([]);
    expect(sandbox.state.posts).toEqual([]);
  });
});
