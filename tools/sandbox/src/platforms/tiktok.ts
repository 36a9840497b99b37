import type { InspectedMedia } from '../media/inspect.js';
import { fetchMedia } from '../media/receive.js';
import type { SandboxPlatform, SandboxResponse } from '../router.js';
import type { SandboxPost } from '../state.js';
import { TIKTOK_PHOTO, TIKTOK_RULES, TIKTOK_VIDEO, tiktokFailReason } from './tiktok/rules.js';
import { chunkProblem, fileUploadRoutes, registerUpload, uploadKey, type FileUploadSpec } from './tiktok/upload.js';

export { TIKTOK_PHOTO, TIKTOK_RULES, TIKTOK_VIDEO } from './tiktok/rules.js';

/**
 * TikTok Content Posting API v2: POST /v2/post/publish/video/init/ (post_info.title ≤2200, source_info
 * PULL_FROM_URL with video_url, or FILE_UPLOAD with video_size/chunk_size/total_chunk_count → upload_url, the
 * chunks PUT there: see tiktok/upload.ts), POST /v2/post/publish/content/init/ (media_type PHOTO, post_mode DIRECT_POST,
 * post_info.title ≤90 + description ≤4000, source_info.photo_images 1–35), POST /v2/post/publish/status/fetch/
 * (PROCESSING_DOWNLOAD once, then PUBLISH_COMPLETE with `publicaly_available_post_id` — empty for SELF_ONLY —
 * or FAILED when the video URL is not MP4/MOV/WebM; ids are sent as strings — the docs type them int64, which JSON
 * numbers cannot carry exactly), POST /v2/video/list/, POST /v2/video/query/,
 * GET /v2/user/info/, POST /v2/post/publish/creator_info/query/ (an account whose name contains `locked` has
 * comments, duets and stitches disabled and a 15 s video limit; others none disabled and 600 s). Every answer carries `error: {code, message, log_id}` (`ok` on success).
 */
const logId = () => `2026${Date.now()}${Math.floor(Math.random() * 1e6)}`;
const ok = (data: unknown): SandboxResponse => ({ status: 200, body: { data, error: { code: 'ok', message: '', log_id: logId() } } });
const fail = (status: number, code: string, message: string): SandboxResponse => ({ status, body: { error: { code, message, log_id: logId() } } });
const invalid = (message: string) => fail(400, 'invalid_params', message);

interface PostInfo {
  title?: string;
  description?: string;
  privacy_level?: string;
  disable_comment?: boolean;
  disable_duet?: boolean;
  disable_stitch?: boolean;
}
interface Details extends Record<string, unknown> {
  publish_id: string;
  media_type: 'VIDEO' | 'PHOTO';
  post_info: PostInfo;
  source_info: Record<string, unknown>;
  polls: number;
  failed: boolean;
  /** Why processing fails (set when the pulled media breaks a rule): the status answers FAILED with it once processed. */
  fail_reason?: string | undefined;
}

/** The creator's settings (creator_info/query): an account whose name contains `locked` has interactions disabled and a 15 s limit. */
function creatorOf(account: string | undefined) {
  const locked = (account ?? '').includes('locked');
  return {
    creator_avatar_url: `https://p16-sign.tiktokcdn.com/avatar/${account}.jpeg`,
    creator_username: account,
    creator_nickname: `${account} (sandbox)`,
    privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
    comment_disabled: locked,
    duet_disabled: locked,
    stitch_disabled: locked,
    max_video_post_duration_sec: locked ? 15 : 600,
  };
}

/** The post_info checks common to videos and photos: a privacy level among the creator's options, boolean switches. */
function postInfoProblem(account: string | undefined, info: PostInfo): SandboxResponse | undefined {
  const options = creatorOf(account).privacy_level_options;
  if (!info.privacy_level) return invalid('post_info.privacy_level is required');
  if (!options.includes(info.privacy_level)) return fail(400, 'privacy_level_option_mismatch', `privacy_level ${info.privacy_level} is not one of the creator's options: ${options.join(', ')}`);
  for (const key of ['disable_comment', 'disable_duet', 'disable_stitch'] as const) {
    if (info[key] !== undefined && typeof info[key] !== 'boolean') return invalid(`post_info.${key} must be a boolean`);
  }
  return undefined;
}

/** Pulls each URL as TikTok does and reads it: the media read, and the first fail_reason (pull failure or broken rule). */
async function pull(urls: string[], kind: 'video' | 'photo', maxSeconds?: number): Promise<{ media: InspectedMedia[]; failReason?: string }> {
  const media: InspectedMedia[] = [];
  for (const url of urls) {
    const fetched = await fetchMedia(url);
    if ('error' in fetched) return { media, failReason: `${kind}_pull_failed` };
    media.push(fetched.media);
    const reason = tiktokFailReason(fetched.media, kind === 'video' ? TIKTOK_VIDEO : TIKTOK_PHOTO, maxSeconds);
    if (reason) return { media, failReason: reason };
  }
  return { media };
}

const details = (post: SandboxPost) => post.details as Details;
const newId = () => String(7_300_000_000_000_000_000n + BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000)));

/** The fields a video list or query asked for, from the stored post. */
function video(post: SandboxPost, fields: string[]) {
  const d = details(post);
  const all: Record<string, unknown> = {
    id: post.id,
    title: d.post_info.title ?? '',
    video_description: post.text,
    create_time: Math.floor(post.createdAt.getTime() / 1000),
    share_url: `https://www.tiktok.com/@${post.account}/video/${post.id}`,
    like_count: 40,
    comment_count: 5,
    share_count: 6,
    view_count: 900,
  };
  return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
}

export const tiktok: SandboxPlatform = {
  name: 'tiktok',
  rules: TIKTOK_RULES,
  unauthorized: () => fail(401, 'access_token_invalid', 'The access token is invalid or not found in the request.'),
  routes: [
    {
      method: 'POST',
      path: '/v2/post/publish/video/init/',
      creates: true,
      handle: async (req, state) => {
        const body = (req.body ?? {}) as { post_info?: PostInfo; source_info?: { source?: string; video_url?: string; video_size?: number; chunk_size?: number; total_chunk_count?: number } };
        const info = body.post_info ?? {};
        const refused = postInfoProblem(req.account, info);
        if (refused) return refused;
        if ((info.title?.length ?? 0) > 2200) return invalid('post_info.title is longer than 2200');
        const maxSeconds = creatorOf(req.account).max_video_post_duration_sec;
        if (body.source_info?.source === 'FILE_UPLOAD') {
          const problem = chunkProblem(body.source_info);
          if (problem) return invalid(problem);
          const publish_id = `v_pub_file~v2-1.${newId()}`;
          const { video_size, chunk_size, total_chunk_count } = body.source_info as Required<FileUploadSpec>;
          const post = { publish_id, media_type: 'VIDEO', post_info: info, source_info: body.source_info, polls: 0, failed: false, privacy_level: info.privacy_level } satisfies Details;
          registerUpload(state, req.account!, publish_id, { video_size, chunk_size, total_chunk_count }, post, maxSeconds);
          return ok({ publish_id, upload_url: `http://${req.headers.host}/tiktok/video-upload/${publish_id}` });
        }
        if (body.source_info?.source !== 'PULL_FROM_URL' || !body.source_info.video_url) return invalid('source_info needs FILE_UPLOAD with its sizes, or PULL_FROM_URL and video_url');
        const publish_id = `v_pub_url~v2-1.${newId()}`;
        const { media, failReason } = await pull([body.source_info.video_url], 'video', maxSeconds);
        state.createPost(
          'tiktok',
          req.account!,
          info.title ?? '',
          { publish_id, media_type: 'VIDEO', post_info: info, source_info: body.source_info, polls: 0, failed: false, fail_reason: failReason, privacy_level: info.privacy_level } satisfies Details,
          newId(),
          media,
        );
        return ok({ publish_id });
      },
    },
    {
      method: 'POST',
      path: '/v2/post/publish/content/init/',
      creates: true,
      handle: async (req, state) => {
        const body = (req.body ?? {}) as { post_info?: PostInfo; source_info?: { source?: string; photo_images?: string[]; photo_cover_index?: number }; post_mode?: string; media_type?: string };
        const info = body.post_info ?? {};
        const photos = body.source_info?.photo_images ?? [];
        if (body.media_type !== 'PHOTO' || !['DIRECT_POST', 'MEDIA_UPLOAD'].includes(body.post_mode ?? '')) return invalid('media_type must be PHOTO and post_mode DIRECT_POST or MEDIA_UPLOAD');
        const refused = postInfoProblem(req.account, info);
        if (refused) return refused;
        if ((info.title?.length ?? 0) > 90 || (info.description?.length ?? 0) > 4000) return invalid('post_info.title (90) or description (4000) is too long');
        if (body.source_info?.source !== 'PULL_FROM_URL' || photos.length < 1 || photos.length > 35) return invalid('source_info needs PULL_FROM_URL and 1 to 35 photo_images');
        if ((body.source_info.photo_cover_index ?? 0) >= photos.length) return invalid('source_info.photo_cover_index is out of range');
        const publish_id = `p_pub_url~v2.${newId()}`;
        const { media, failReason } = await pull(photos, 'photo');
        state.createPost(
          'tiktok',
          req.account!,
          info.description ?? '',
          { publish_id, media_type: 'PHOTO', post_info: info, source_info: body.source_info, polls: 0, failed: false, fail_reason: failReason, privacy_level: info.privacy_level } satisfies Details,
          newId(),
          media,
        );
        return ok({ publish_id });
      },
    },
    {
      method: 'POST',
      path: '/v2/post/publish/status/fetch/',
      handle: (req, state) => {
        const publishId = (req.body as { publish_id?: string } | undefined)?.publish_id;
        const post = state.postsOf('tiktok', req.account).find((p) => details(p).publish_id === publishId);
        const uploading = state.media.get(uploadKey(publishId ?? ''));
        if (!post && uploading && uploading.account === req.account) return ok({ status: 'PROCESSING_UPLOAD', uploaded_bytes: uploading.extra?.received ?? 0 });
        if (!post) return invalid('publish_id is invalid');
        const d = details(post);
        d.polls += 1;
        if (d.polls === 1)
          return ok(d.source_info.source === 'FILE_UPLOAD' ? { status: 'PROCESSING_UPLOAD', uploaded_bytes: post.media[0]?.bytes ?? 0 } : { status: 'PROCESSING_DOWNLOAD', downloaded_bytes: 0 });
        if (d.fail_reason) {
          d.failed = true;
          return ok({ status: 'FAILED', fail_reason: d.fail_reason });
        }
        return ok({ status: 'PUBLISH_COMPLETE', publicaly_available_post_id: d.post_info.privacy_level === 'SELF_ONLY' ? [] : [post.id] });
      },
    },
    ...fileUploadRoutes((state, upload, media, failReason) => {
      const post = upload.extra!.post as Details;
      state.createPost('tiktok', upload.account!, post.post_info.title ?? '', { ...post, fail_reason: failReason }, newId(), [media]);
    }),
    {
      method: 'POST',
      path: '/v2/video/list/',
      handle: (req, state) => {
        const fields = (req.query.get('fields') ?? '').split(',');
        const max = (req.body as { max_count?: number } | undefined)?.max_count ?? 10;
        if (max < 1 || max > 20) return invalid('max_count must be 1 to 20');
        const videos = state
          .postsOf('tiktok', req.account)
          .filter((p) => !details(p).failed && !details(p).fail_reason)
          .reverse()
          .slice(0, max)
          .map((p) => video(p, fields));
        return ok({ videos, cursor: 0, has_more: false });
      },
    },
    {
      method: 'POST',
      path: '/v2/video/query/',
      handle: (req, state) => {
        const fields = (req.query.get('fields') ?? '').split(',');
        const ids = (req.body as { filters?: { video_ids?: string[] } } | undefined)?.filters?.video_ids ?? [];
        if (!ids.length || ids.length > 20) return invalid('filters.video_ids must have 1 to 20 ids');
        const videos = state
          .postsOf('tiktok', req.account)
          .filter((p) => ids.includes(p.id))
          .map((p) => video(p, fields));
        return ok({ videos, cursor: 0, has_more: false });
      },
    },
    {
      method: 'POST',
      path: '/v2/post/publish/creator_info/query/',
      handle: (req) => ok(creatorOf(req.account)),
    },
    {
      method: 'GET',
      path: '/v2/user/info/',
      handle: (req) => ok({ user: { open_id: `open-${req.account}`, username: req.account, display_name: req.account } }),
    },
  ],
};
