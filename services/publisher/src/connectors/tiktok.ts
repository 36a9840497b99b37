import { setTimeout as sleep } from 'node:timers/promises';
import { callPlatform, field, type CallOptions } from './http.js';
import { mp4DurationSeconds } from './mp4-duration.js';
import { ConnectorError, postGone, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/** TikTok's creator info (POST /v2/post/publish/creator_info/query/), as TikTok names it. */
export interface TikTokCreatorInfo {
  creator_avatar_url: string;
  creator_username: string;
  creator_nickname: string;
  privacy_level_options: string[];
  comment_disabled: boolean;
  duet_disabled: boolean;
  stitch_disabled: boolean;
  max_video_post_duration_sec: number;
}

/** The interaction settings sent with a post: the post's own choice, unless the creator disabled it for every post. */
export function interactionSettings(creator: TikTokCreatorInfo, part: ContentPart): { disable_comment: boolean; disable_duet: boolean; disable_stitch: boolean } {
  const own = part.options ?? {};
  return {
    disable_comment: creator.comment_disabled || own.disable_comment === true,
    disable_duet: creator.duet_disabled || own.disable_duet === true,
    disable_stitch: creator.stitch_disabled || own.disable_stitch === true,
  };
}

export interface TikTokConnector extends Connector {
  creatorInfo(target: TargetAccount): Promise<TikTokCreatorInfo>;
}

/**
 * TikTok (Content Posting API v2, OAuth 2.0 bearer with `video.publish`, `video.list`, `user.info.basic`).
 * Credentials besides `access_token`: `open_id` (the TikTok user the token must belong to).
 * The post's `privacy_level` option is required (TikTok forbids a default) and must be one of the creator's
 * `privacy_level_options`; a post without one, or with another, is refused as `rejected` naming it.
 * A post needs media: a video is sent with FILE_UPLOAD (`/v2/post/publish/video/init/` with video_size,
 * chunk_size, total_chunk_count as TikTok's chunk rules want them — whole under 5 MB, else `chunkBytes` (default
 * 10 MiB, kept within 5–64 MB) with the remainder in the last chunk — then each chunk PUT to the answered
 * upload_url with Content-Range; caption in `title`); photos (1–35) are pulled by TikTok from `MediaItem.url`
 * (PULL_FROM_URL, the only way TikTok takes photos; the domain must be verified with TikTok) as a PHOTO post via
 * `/v2/post/publish/content/init/` (first line as `title` ≤90, the body as `description`). Then `/v2/post/publish/status/fetch/` is polled until
 * PUBLISH_COMPLETE and `publicaly_available_post_id` (sic) gives the post id. A private post, or one still in
 * moderation when polling ends, has no public id: it is answered by its publish_id and the profile URL.
 * TikTok's API cannot delete posts: `delete` fails as `rejected`.
 * Before every post (and in a dry run's preflight) the creator info is queried: comments, duets and stitches
 * the creator disabled are disabled on the post whatever the post asked (`metadata.disable_comment` etc.), the
 * privacy level is checked against the creator's options, and a video longer than `max_video_post_duration_sec`
 * (from the media's probed facts, else the MP4's movie header) is refused before sending.
 * Polling: `polling.intervalMs` (default 3 s) × `polling.maxPolls` (default 40): two minutes.
 */
const MiB = 1024 * 1024;

/** TikTok's chunking of a FILE_UPLOAD: whole under 5 MB; else chunks of `chunkBytes` (5–64 MB), the remainder riding in the last. */
export function chunking(size: number, chunkBytes = 10 * MiB): { chunk_size: number; total_chunk_count: number } {
  if (size < 5 * MiB) return { chunk_size: size, total_chunk_count: 1 };
  const chunk = Math.min(Math.max(chunkBytes, 5 * MiB), 64 * MiB, size);
  return { chunk_size: chunk, total_chunk_count: Math.floor(size / chunk) };
}

export function tiktokConnector(baseUrl = 'https://open.tiktokapis.com', polling: { intervalMs?: number; maxPolls?: number; chunkBytes?: number } = {}): TikTokConnector {
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });
  /** The post's privacy level: required, TikTok forbids a default. */
  const privacy = (part: ContentPart) => {
    const level = part.options?.privacy_level;
    if (!level) throw new ConnectorError('rejected', "tiktok: privacy_level is required (one of the creator's privacy_level_options); TikTok forbids a default");
    return level;
  };

  /** A TikTok call: every answer carries `error.code`, `ok` on success. */
  async function api<T>(target: TargetAccount, path: string, options: CallOptions = {}): Promise<T> {
    const answer = await callPlatform(`${baseUrl}${path}`, { ...options, headers: auth(target) });
    const error = (answer.body as { error?: { code?: string; message?: string } }).error;
    if (error?.code && error.code !== 'ok') throw new ConnectorError('rejected', `tiktok ${path}: ${error.code}: ${error.message ?? ''}`, undefined, answer.status);
    return field<T>(answer.body, 'data');
  }

  const creatorInfo = (target: TargetAccount) => api<TikTokCreatorInfo>(target, '/v2/post/publish/creator_info/query/', { method: 'POST', body: {} });

  /** The creator's current settings, after checking the post's privacy level and the video's length against them (nothing is sent to TikTok's post endpoints). */
  async function checkAgainstCreator(target: TargetAccount, part: ContentPart): Promise<TikTokCreatorInfo> {
    const level = privacy(part);
    const creator = await creatorInfo(target);
    if (!creator.privacy_level_options.includes(level)) {
      throw new ConnectorError('rejected', `tiktok: privacy_level ${level} is not one of this creator's privacy_level_options (${creator.privacy_level_options.join(', ')})`);
    }
    const video = part.media.find((m) => m.type === 'video');
    if (video) {
      const seconds = video.facts?.duration_s ?? mp4DurationSeconds((await video.read()).bytes);
      if (seconds !== undefined && seconds > creator.max_video_post_duration_sec) {
        throw new ConnectorError('rejected', `tiktok: the video is ${Math.ceil(seconds)} s long; this creator may post at most ${creator.max_video_post_duration_sec} s`);
      }
    }
    return creator;
  }

  async function init(target: TargetAccount, part: ContentPart, creator: TikTokCreatorInfo): Promise<string> {
    const { body, media } = part;
    const settings = interactionSettings(creator, part);
    const videos = media.filter((m) => m.type === 'video');
    const photos = media.filter((m) => m.type === 'image').map((m) => m.url);
    const other = media.find((m) => m.type !== 'video' && m.type !== 'image');
    if (other) throw new ConnectorError('rejected', `tiktok: a post cannot carry a ${other.type} (${other.r2Key})`);
    if (videos.length > 1 || (videos.length && photos.length)) throw new ConnectorError('rejected', 'tiktok: a post is one video, or 1 to 35 photos; not both, not several videos');
    if (photos.length > 35) throw new ConnectorError('rejected', `tiktok: a photo post takes at most 35 photos, this one has ${photos.length}`);
    const video = videos[0];
    if (video) {
      const { bytes, contentType } = await video.read();
      const { chunk_size, total_chunk_count } = chunking(bytes.length, polling.chunkBytes);
      const data = await api<{ publish_id: string; upload_url: string }>(target, '/v2/post/publish/video/init/', {
        method: 'POST',
        body: { post_info: { title: body, privacy_level: privacy(part), ...settings }, source_info: { source: 'FILE_UPLOAD', video_size: bytes.length, chunk_size, total_chunk_count } },
      });
      for (let i = 0; i < total_chunk_count; i++) {
        const first = i * chunk_size;
        const chunk = bytes.subarray(first, i === total_chunk_count - 1 ? bytes.length : first + chunk_size);
        await callPlatform(data.upload_url, {
          method: 'PUT',
          headers: { 'content-type': contentType, 'content-range': `bytes ${first}-${first + chunk.length - 1}/${bytes.length}` },
          body: chunk,
          timeoutMs: 60_000 + Math.ceil(chunk.length / 1000),
        });
      }
      return data.publish_id;
    }
    if (!photos.length) throw new ConnectorError('rejected', 'tiktok: a post needs a video or photos');
    const data = await api<{ publish_id: string }>(target, '/v2/post/publish/content/init/', {
      method: 'POST',
      body: {
        post_info: { title: (body.split('\n')[0] ?? '').slice(0, 90), description: body, privacy_level: privacy(part), disable_comment: settings.disable_comment },
        source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: photos },
        post_mode: 'DIRECT_POST',
        media_type: 'PHOTO',
      },
    });
    return data.publish_id;
  }

  /** Polls the publish status until the post is live (its public id, when TikTok gives one) or failed. */
  async function untilPublished(target: TargetAccount, publishId: string, level: string): Promise<string | undefined> {
    let complete = false;
    for (let poll = 0; poll < (polling.maxPolls ?? 40); poll++) {
      if (poll > 0) await sleep(polling.intervalMs ?? 3000);
      const data = await api<{ status: string; fail_reason?: string; publicaly_available_post_id?: Array<string | number> }>(target, '/v2/post/publish/status/fetch/', {
        method: 'POST',
        body: { publish_id: publishId },
      });
      if (data.status === 'FAILED') throw new ConnectorError('rejected', `tiktok: publishing failed: ${data.fail_reason ?? 'no reason given'}`);
      if (data.status !== 'PUBLISH_COMPLETE') continue;
      complete = true;
      const id = data.publicaly_available_post_id?.[0];
      if (id !== undefined) return String(id);
      if (level === 'SELF_ONLY') return undefined;
    }
    if (complete) return undefined;
    throw new ConnectorError('unknown_outcome', `tiktok: ${publishId} was still processing when polling ended`);
  }

  const published = (target: TargetAccount, id: string | undefined, publishId: string): Published =>
    id ? { platformPostId: id, permalink: `https://www.tiktok.com/@${target.username}/video/${id}` } : { platformPostId: publishId, permalink: `https://www.tiktok.com/@${target.username}` };

  return {
    platform: 'tiktok',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const part = parts[0];
      if (!part) throw new Error('nothing to publish');
      const publishId = await init(target, part, await checkAgainstCreator(target, part));
      return published(target, await untilPublished(target, publishId, privacy(part)), publishId);
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const data = await api<{ videos?: Array<{ id: string; title?: string; video_description?: string; create_time?: number }> }>(
        target,
        '/v2/video/list/?fields=id,title,video_description,create_time',
        { method: 'POST', body: { max_count: 20 } },
      );
      const body = parts[0]?.body;
      const from = Math.floor(since.getTime() / 1000);
      const found = (data.videos ?? []).find((v) => (v.video_description === body || v.title === body) && (v.create_time ?? 0) >= from);
      return found ? published(target, String(found.id), '') : null;
    },

    async delete(): Promise<void> {
      throw new ConnectorError('rejected', "tiktok: TikTok's API cannot delete posts; delete it in the TikTok app");
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const data = await api<{ videos?: Array<Record<string, number>> }>(target, '/v2/video/query/?fields=id,like_count,comment_count,share_count,view_count', {
        method: 'POST',
        body: { filters: { video_ids: [platformPostId] } },
      });
      const v = data.videos?.[0];
      if (!v) {
        // A post answered by its publish_id (private, or in moderation when publishing ended) has no video id to query.
        if (isPublishId(platformPostId)) throw new ConnectorError('rejected', `tiktok: post ${platformPostId} has no public video id to read metrics of`);
        // The query answers only the account's existing videos: a deleted one is left out.
        throw postGone(`tiktok: video ${platformPostId} no longer exists`);
      }
      return { impressions: v.view_count ?? null, likes: v.like_count ?? null, replies: v.comment_count ?? null, reposts: v.share_count ?? null, clicks: null };
    },

    creatorInfo,

    async preflight({ target, parts }: PublishRequest): Promise<void> {
      if (parts[0]) await checkAgainstCreator(target, parts[0]);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      const data = await api<{ user?: { open_id?: string } }>(target, '/v2/user/info/?fields=open_id,username,display_name');
      const expected = target.credentials.open_id;
      if (expected && data.user?.open_id !== expected) throw new ConnectorError('auth', 'tiktok: the token belongs to another TikTok user');
      return true;
    },
  };
}

/** A publish_id (`v_pub_…`, `p_pub_…`): what a post without a public video id is answered by (see publish). */
function isPublishId(id: string): boolean {
  return /^[a-z]_pub_/.test(id);
}
