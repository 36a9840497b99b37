import { startSandbox, type Sandbox } from '@spa/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tiktok } from '../../../../tools/sandbox/src/platforms/tiktok.js';
import { tiktokConnector } from './tiktok.js';
import { ConnectorError, type ContentPart, type MediaItem, type TargetAccount } from './types.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox([tiktok]);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => sandbox.state.reset());

const target: TargetAccount = {
  socialAccountId: 1,
  platform: 'tiktok',
  username: 'acme',
  credentials: { access_token: 'sandbox-acme', open_id: 'open-acme', privacy_level: 'PUBLIC_TO_EVERYONE' },
};
const media = (name: string, type: MediaItem['type']): MediaItem => ({
  r2Key: `ws/1/${name}`,
  type,
  url: `https://media.example/${name}`,
  read: async () => ({ bytes: Buffer.from(name), contentType: type === 'video' ? 'video/mp4' : 'image/jpeg' }),
});
const video = (body: string, name = 'clip.mp4'): ContentPart => ({ body, contentType: 'video', position: 0, media: [media(name, 'video')] });
const connector = (maxPolls = 5) => tiktokConnector(`${sandbox.url}/tiktok`, { intervalMs: 5, maxPolls });
type Details = { publish_id: string; post_info: Record<string, unknown>; source_info: Record<string, unknown>; polls: number };
const details = () => sandbox.state.postsOf('tiktok', 'acme').map((p) => p.details as Details);

describe('TikTok connector against the Content Posting API stand-in', () => {
  it('publishes a video by URL, polls the status until PUBLISH_COMPLETE and answers the public post id', async () => {
    const result = await connector().publish({ target, parts: [video('my clip #fun')] });
    const [post] = sandbox.state.postsOf('tiktok', 'acme');
    expect(details()[0]).toMatchObject({
      post_info: { title: 'my clip #fun', privacy_level: 'PUBLIC_TO_EVERYONE' },
      source_info: { source: 'PULL_FROM_URL', video_url: 'https://media.example/clip.mp4' },
      polls: 2,
    });
    expect(result).toEqual({ platformPostId: post?.id, permalink: `https://www.tiktok.com/@acme/video/${post?.id}` });
  });

  it('publishes photos as a DIRECT_POST PHOTO post with title and description', async () => {
    const body = 'Our new shop\nOpen every day from 9';
    await connector().publish({ target, parts: [{ body, contentType: 'image', position: 0, media: [media('a.jpg', 'image'), media('b.jpg', 'image')] }] });
    expect(details()[0]).toMatchObject({
      media_type: 'PHOTO',
      post_info: { title: 'Our new shop', description: body, privacy_level: 'PUBLIC_TO_EVERYONE' },
      source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: ['https://media.example/a.jpg', 'https://media.example/b.jpg'] },
    });
  });

  it('answers a private post, which has no public id, by its publish_id and the profile', async () => {
    const result = await connector().publish({ target: { ...target, credentials: { ...target.credentials, privacy_level: 'SELF_ONLY' } }, parts: [video('private')] });
    expect(result).toEqual({ platformPostId: details()[0]?.publish_id, permalink: 'https://www.tiktok.com/@acme' });
  });

  it('classifies failures: 5xx transient, 429 rate limited, bad token auth, invalid_params rejected, FAILED rejected, dropped answer unknown, polling out unknown', async () => {
    const kinds: Array<[string, string]> = [
      ['server_error', 'transient'],
      ['rate_limited', 'rate_limited'],
      ['auth', 'auth'],
      ['drop_after_accept', 'unknown_outcome'],
    ];
    for (const [fault, kind] of kinds) {
      sandbox.state.addFault('tiktok', fault as never);
      const error = await connector()
        .publish({ target, parts: [video(`fault ${fault}`)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind, fault).toBe(kind);
      if (kind === 'rate_limited') expect((error as ConnectorError).retryAfterMs).toBe(1000);
    }
    const invalid = await connector()
      .publish({ target: { ...target, credentials: { ...target.credentials, privacy_level: 'EVERYONE' } }, parts: [video('bad privacy')] })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ kind: 'rejected', status: 400 });
    expect((invalid as ConnectorError).message).toMatch(/invalid_params/);
    const failed = await connector()
      .publish({ target, parts: [video('not a video', 'clip.gif')] })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ kind: 'rejected' });
    expect((failed as ConnectorError).message).toMatch(/file_format_check_failed/);
    await expect(connector(1).publish({ target, parts: [video('slow')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    await expect(connector().publish({ target, parts: [{ body: 'text only', contentType: 'text', position: 0, media: [] }] })).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('finds a post whose answer was lost in the video list, and null for a never-sent text', async () => {
    const since = new Date();
    sandbox.state.addFault('tiktok', 'drop_after_accept');
    await expect(connector().publish({ target, parts: [video('maybe sent')] })).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const id = sandbox.state.postsOf('tiktok')[0]?.id;
    expect(await connector().findPublished({ target, parts: [video('maybe sent')] }, since)).toEqual({ platformPostId: id, permalink: `https://www.tiktok.com/@acme/video/${id}` });
    expect(await connector().findPublished({ target, parts: [video('never sent')] }, since)).toBeNull();
    expect(await connector().findPublished({ target, parts: [video('maybe sent')] }, new Date(Date.now() + 5000))).toBeNull();
  });

  it('reads metrics, cannot delete, and validates credentials (and that the token is the account’s)', async () => {
    const { platformPostId } = await connector().publish({ target, parts: [video('metrics')] });
    expect(await connector().fetchMetrics(target, platformPostId)).toEqual({ impressions: 900, likes: 40, replies: 5, reposts: 6, clicks: 0 });
    await expect(connector().delete(target, platformPostId)).rejects.toMatchObject({ kind: 'rejected' });
    expect(await connector().validateCredentials(target)).toBe(true);
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, access_token: 'expired' } })).rejects.toMatchObject({ kind: 'auth', status: 401 });
    await expect(connector().validateCredentials({ ...target, credentials: { ...target.credentials, open_id: 'open-someone-else' } })).rejects.toMatchObject({ kind: 'auth' });
  });
});

/** An MP4 whose movie header says `seconds` long (timescale 1000), as a real file's moov/mvhd does. */
function mp4Of(seconds: number, version: 0 | 1 = 0): Buffer {
  const box = (type: string, payload: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + payload.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, payload]);
  };
  const mvhd = Buffer.alloc(version === 1 ? 108 : 96);
  mvhd[0] = version;
  if (version === 1) {
    mvhd.writeUInt32BE(1000, 20);
    mvhd.writeBigUInt64BE(BigInt(seconds * 1000), 24);
  } else {
    mvhd.writeUInt32BE(1000, 12);
    mvhd.writeUInt32BE(seconds * 1000, 16);
  }
  return Buffer.concat([box('ftyp', Buffer.from('isomiso2')), box('moov', box('mvhd', mvhd)), box('mdat', Buffer.alloc(64))]);
}

describe('TikTok creator info', () => {
  const locked: TargetAccount = { ...target, username: 'locked_acme', credentials: { access_token: 'sandbox-locked_acme', privacy_level: 'SELF_ONLY' } };
  const clip = (seconds: number, version: 0 | 1 = 0): MediaItem => ({ ...media('c.mp4', 'video'), read: async () => ({ bytes: mp4Of(seconds, version), contentType: 'video/mp4' }) });

  it('answers the documented fields of creator_info/query', async () => {
    expect(await connector().creatorInfo(locked)).toEqual({
      creator_avatar_url: expect.stringContaining('locked_acme'),
      creator_username: 'locked_acme',
      creator_nickname: 'locked_acme (sandbox)',
      privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: true,
      duet_disabled: true,
      stitch_disabled: true,
      max_video_post_duration_sec: 15,
    });
  });

  it("the creator's disabled comments, duets and stitches override the post's own choice; an open creator keeps it", async () => {
    await connector().publish({ target: locked, parts: [{ ...video('open to all'), media: [clip(10)], options: { disable_comment: false } }] });
    expect(sandbox.state.postsOf('tiktok', 'locked_acme')[0]?.details).toMatchObject({ post_info: { disable_comment: true, disable_duet: true, disable_stitch: true } });
    await connector().publish({ target, parts: [{ ...video('no duets please'), media: [clip(10)], options: { disable_duet: true } }] });
    expect(details()[0]).toMatchObject({ post_info: { disable_comment: false, disable_duet: true, disable_stitch: false } });
  });

  it('refuses a video longer than the creator may post before sending anything, in a publish and in a dry run alike', async () => {
    const long = { target: locked, parts: [{ ...video('too long'), media: [clip(16, 1)] }] };
    await expect(connector().publish(long)).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('16 s long; this creator may post at most 15 s') });
    await expect(connector().preflight!(long)).rejects.toBeInstanceOf(ConnectorError);
    expect(sandbox.state.requests.filter((r) => r.creates)).toEqual([]);
    expect(sandbox.state.posts).toEqual([]);
    await expect(connector().preflight!({ target: locked, parts: [{ ...video('short'), media: [clip(15)] }] })).resolves.toBeUndefined();
  });
});
