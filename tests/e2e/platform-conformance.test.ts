import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { createWorkspace, freshClientAddress, request, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { makeImage, makeVideo } from '@spa/testing/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * One truth, checked end to end: for every platform and every kind of content, a dry run's verdict is the
 * real publish's outcome on the strict sandbox (which enforces each platform's documented rules on the
 * bytes it receives), and a published target carries every media item of its post, as the platform read it.
 *
 * The expected outcomes below are written from the platforms' documentation (and the sandbox's rule table),
 * not derived from our capability table: a platform or a content kind without a row fails the test.
 */
const KINDS = ['text', 'jpeg', 'png', 'webp', 'gif', 'mp4', 'mov', 'long_video', 'wrong_aspect', 'document'] as const;
type Kind = (typeof KINDS)[number];

/** `posted`: published with all its media; `refused`: the dry run and the publish both refuse it; `no_upload`: no upload takes the file. */
type Expected = 'posted' | 'refused' | 'no_upload';

const P = 'posted' as const;
const R = 'refused' as const;
const everything = (overrides: Partial<Record<Kind, Expected>> = {}): Record<Kind, Expected> => ({
  text: P,
  jpeg: P,
  png: P,
  webp: P,
  gif: P,
  mp4: P,
  mov: P,
  long_video: P,
  wrong_aspect: P,
  // Uploads take images and videos only (LinkedIn documents have no upload route of ours).
  document: 'no_upload',
  ...overrides,
});
const noVideo = { mp4: R, mov: R, long_video: R } as const;
const mediaRequired = { text: R } as const;

const EXPECTED: Record<Platform, Record<Kind, Expected>> = {
  // X: video at most 140 s.
  twitter: everything({ long_video: R }),
  linkedin: everything(),
  // YouTube publishes videos only.
  youtube: everything({ text: R, jpeg: R, png: R, webp: R, gif: R, wrong_aspect: R }),
  // Instagram: every post has media; PNG, WebP and GIF become JPEG; a panorama is padded into 1.91:1.
  instagram: everything(mediaRequired),
  threads: everything(),
  pinterest: everything(mediaRequired),
  tiktok: everything(mediaRequired),
  bluesky: everything(),
  mastodon: everything(),
  facebook: everything(),
  // Local posts take one photo and no video.
  google_business: everything(noVideo),
  discord: everything(),
  telegram: everything(),
  tumblr: everything(),
  slack: everything(),
};

/** Per-platform choices every post on the platform needs (TikTok refuses a post without a privacy level). */
const OPTIONS: Partial<Record<Platform, Record<string, unknown>>> = {
  tiktok: { privacy_level: 'SELF_ONLY' },
  youtube: { title: 'Conformance', privacy_status: 'private' },
  pinterest: { title: 'Conformance', link: 'https://example.com/conformance' },
};

interface Fixture {
  type: 'image' | 'video' | 'document';
  content_type: string;
  bytes: Buffer;
}

async function fixture(kind: Exclude<Kind, 'text'>): Promise<Fixture> {
  switch (kind) {
    case 'jpeg':
      return { type: 'image', content_type: 'image/jpeg', bytes: await makeImage({ format: 'jpeg', width: 1080, height: 1080 }) };
    case 'png':
      return { type: 'image', content_type: 'image/png', bytes: await makeImage({ format: 'png', width: 1080, height: 1080 }) };
    case 'webp':
      return { type: 'image', content_type: 'image/webp', bytes: await makeImage({ format: 'webp', width: 1080, height: 1080 }) };
    case 'gif':
      return { type: 'image', content_type: 'image/gif', bytes: await makeImage({ format: 'gif', width: 480, height: 480, frames: 3 }) };
    case 'wrong_aspect':
      return { type: 'image', content_type: 'image/jpeg', bytes: await makeImage({ format: 'jpeg', width: 3000, height: 500 }) };
    case 'mp4':
      return { type: 'video', content_type: 'video/mp4', bytes: await makeVideo({ container: 'mp4', codec: 'h264', width: 1280, height: 720, seconds: 6, fps: 30 }) };
    case 'mov':
      return { type: 'video', content_type: 'video/quicktime', bytes: await makeVideo({ container: 'mov', codec: 'hevc', width: 1280, height: 720, seconds: 6, fps: 30 }) };
    case 'long_video':
      return { type: 'video', content_type: 'video/mp4', bytes: await makeVideo({ container: 'mp4', codec: 'h264', width: 640, height: 360, seconds: 150, fps: 24 }) };
    case 'document':
      return { type: 'document', content_type: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n') };
  }
}

let stack: Stack;
let ws: TestWorkspace;
const accounts = new Map<Platform, { id: number; username: string }>();

beforeAll(async () => {
  stack = await startStack({ publishing: true });
  ws = await createWorkspace(stack);
  for (const platform of PLATFORMS) {
    const username = `conf_${platform}`.replace(/_/g, '');
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username, sandbox: true });
    accounts.set(platform, { id: socialAccountId, username });
  }
}, 300_000);
afterAll(async () => {
  await stack?.stop();
}, 120_000);

const call = (p: string, opts: HttpOptions = {}) => stack.api(p, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });

type Verdict = { ok: true } | { ok: false; reason: string };

/** Creates the post and publishes it; the verdict is the target's terminal state (or the 422 that refused it up front). */
async function attempt(platform: Platform, kind: Kind, media: Array<{ r2_key: string; type: string }>, dryRun: boolean): Promise<Verdict & { postId?: number }> {
  // Words only (LinkedIn escapes `_` in its little text format): the post is found on the platform by this text.
  const body = `conformance ${platform} ${kind.replace('_', ' ')} ${dryRun ? 'rehearsal' : 'for real'}`;
  const made = await call('/posts', {
    body: {
      post: {
        body,
        dry_run: dryRun,
        // Scheduled a moment ahead rather than published now: the publish-now route's rate limit (30 a minute) is
        // not what this test is about.
        scheduled_at: new Date(Date.now() + 3_000).toISOString(),
        post_contents: [{ platform, body, metadata: { ...(media.length ? { media } : {}), ...OPTIONS[platform] } }],
        post_accounts: [{ social_account_id: accounts.get(platform)!.id }],
      },
    },
  });
  if (made.status === 422) return { ok: false, reason: `refused at create: ${made.text}` };
  expect(made.status, made.text).toBe(201);
  const id = made.json.post.id as number;
  let post: { status: string; post_accounts: Array<{ platform_status: string; platform_error: string | null }> } = { status: '', post_accounts: [] };
  await expect
    .poll(
      async () => {
        post = (await call(`/posts/${id}`)).json.post;
        return post.status;
      },
      { timeout: 120_000, interval: 500 },
    )
    .toMatch(/^(posted|failed|partial)$/);
  const target = post.post_accounts[0]!;
  return target.platform_status === (dryRun ? 'dry_run' : 'posted') ? { ok: true, postId: id } : { ok: false, reason: target.platform_error ?? target.platform_status, postId: id };
}

interface SandboxPost {
  account: string;
  text: string;
  media: Array<{ kind: string; content_type: string; width?: number; height?: number; duration_s?: number }>;
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

describe('platform conformance: a dry run tells what publishing will do, and what is published carries all its media', () => {
  it('has a row for every platform and every content kind', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...PLATFORMS].sort());
    for (const platform of PLATFORMS) expect(Object.keys(EXPECTED[platform]).sort(), platform).toEqual([...KINDS].sort());
  });

  it('for each platform and kind: the dry run verdict equals the publish outcome, which is the documented one, with every media item on the platform', async () => {
    // One upload per kind (the generic upload route; an r2_key serves every platform, converted for each at publish).
    const uploads = new Map<Kind, { r2_key: string; type: string } | 'refused'>();
    for (const kind of KINDS) {
      if (kind === 'text') continue;
      const file = await fixture(kind);
      const upload = await call('/media/uploads', { body: { platform: 'mastodon', content_type: file.content_type, media: file.bytes.toString('base64') } });
      uploads.set(kind, upload.status === 201 ? { r2_key: upload.json.r2_key, type: file.type } : 'refused');
      if (kind !== 'document') expect(upload.status, `${kind} upload: ${upload.text}`).toBe(201);
    }

    const rows = PLATFORMS.flatMap((platform) => KINDS.map((kind) => ({ platform, kind })));
    const mismatches: string[] = [];
    // Twelve rows at a time: each attempt mostly waits (its post is scheduled 3 s ahead, then polled), and the
    // media service converts two files at a time whatever the number of posts waiting on it.
    await pooled(rows, 12, async ({ platform, kind }) => {
      const expected = EXPECTED[platform][kind];
      const upload = kind === 'text' ? undefined : uploads.get(kind);
      if (upload === 'refused') {
        if (expected !== 'no_upload') mismatches.push(`${platform} ${kind}: the upload was refused, expected ${expected}`);
        return;
      }
      if (expected === 'no_upload') {
        mismatches.push(`${platform} ${kind}: the upload was taken, expected no upload to take it`);
        return;
      }
      const media = upload ? [upload] : [];
      const dry = await attempt(platform, kind, media, true);
      const real = await attempt(platform, kind, media, false);
      const say = (v: Verdict) => (v.ok ? 'posted' : `refused (${v.reason.slice(0, 300)})`);
      if (dry.ok !== real.ok) mismatches.push(`${platform} ${kind}: dry run ${say(dry)} but publish ${say(real)}`);
      if (real.ok !== (expected === 'posted')) mismatches.push(`${platform} ${kind}: expected ${expected}, publish ${say(real)}`);
      if (real.ok && upload) {
        const { username } = accounts.get(platform)!;
        const remote = ((await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts as SandboxPost[]).filter(
          (p) => p.account === username && p.text.includes(`conformance ${platform} ${kind.replace('_', ' ')} for real`),
        );
        const carried = remote.flatMap((p) => p.media);
        if (carried.length !== 1 || carried[0]!.kind !== upload.type) {
          mismatches.push(`${platform} ${kind}: posted, but the platform received ${JSON.stringify(carried)} for one ${upload.type}`);
        }
      }
    });
    expect(mismatches).toEqual([]);
  }, 900_000);
});

describe('a publisher killed between uploading the media and creating the post', () => {
  it('publishes the post once, with its video, after another publisher takes the attempt over', async () => {
    const account = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'confkill', sandbox: true })).socialAccountId;
    const video = await makeVideo({ container: 'mp4', codec: 'h264', width: 1280, height: 720, seconds: 4, fps: 30 });
    const upload = await call('/media/uploads', { body: { platform: 'twitter', content_type: 'video/mp4', media: video.toString('base64') } });
    expect(upload.status, upload.text).toBe(201);
    // The post's create will never be answered: the publisher is inside it, its video uploaded, when it dies.
    expect((await request(stack.sandboxUrl!, '/_sandbox/faults', { method: 'POST', body: { platform: 'twitter', fault: 'timeout', times: 1 } })).status).toBeLessThan(300);
    const body = 'killed mid-publish, published once';
    const made = await call('/posts', {
      body: { post: { body, post_contents: [{ platform: 'twitter', body, metadata: { media: [{ r2_key: upload.json.r2_key, type: 'video' }] } }], post_accounts: [{ social_account_id: account }] } },
    });
    expect(made.status, made.text).toBe(201);
    expect((await call(`/posts/${made.json.post.id}/publishes`, { method: 'POST', body: {} })).status).toBe(202);
    type Asked = Array<{ path: string; method: string; account: string; creates: boolean }>;
    await expect
      .poll(async () => ((await request(stack.sandboxUrl!, '/_sandbox/requests?platform=twitter')).json.requests as Asked).some((r) => r.account === 'confkill' && r.creates), {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(true);
    const asked = (await request(stack.sandboxUrl!, '/_sandbox/requests?platform=twitter')).json.requests as Asked;
    expect(asked.filter((r) => r.account === 'confkill' && !r.creates && r.method === 'POST').length, 'the video was uploaded before the create').toBeGreaterThan(0);

    for (const publisher of stack.processes.filter((p) => p.name === 'publisher' && p.child.exitCode === null && p.child.signalCode === null)) await publisher.stop('SIGKILL');
    await stack.startPublisher();

    let post: { status: string; post_accounts: Array<{ platform_status: string; platform_error: string | null }> } = { status: '', post_accounts: [] };
    await expect
      .poll(
        async () => {
          post = (await call(`/posts/${made.json.post.id}`)).json.post;
          return post.status;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toMatch(/^(posted|failed|partial)$/);
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    const remote = ((await request(stack.sandboxUrl!, '/_sandbox/posts?platform=twitter')).json.posts as SandboxPost[]).filter((p) => p.account === 'confkill');
    expect(remote).toHaveLength(1);
    expect(remote[0]!.media).toEqual([expect.objectContaining({ kind: 'video', content_type: 'video/mp4', width: 1280, height: 720 })]);
  }, 300_000);
});
