import type { InspectedMedia } from '../media/inspect.js';
import { fetchMedia } from '../media/receive.js';
import { mediaViolation, type SandboxMediaRule } from '../media/rules.js';
import type { PlatformRules, SandboxPlatform } from '../router.js';
import type { SandboxState } from '../state.js';
import { graphError, graphId, graphTime, graphUnauthorized, insightsAnswer, notFound, requested, withToken } from './meta-graph.js';
import { withTokenAsync } from './meta-graph-async.js';

const PHOTO_UPLOADS = 'https://developers.facebook.com/docs/graph-api/photo-uploads/';
const PAGE_PHOTOS = 'https://developers.facebook.com/docs/graph-api/reference/page/photos';
const PAGE_VIDEOS = 'https://developers.facebook.com/docs/graph-api/reference/page/videos';

/** Page photos: JPEG, BMP, PNG, GIF, TIFF (and HEIF, WebP, which Facebook's own upload error names), under 4 MB. */
export const FACEBOOK_PHOTO: SandboxMediaRule = {
  types: ['image/jpeg', 'image/bmp', 'image/png', 'image/gif', 'image/tiff', 'image/heic', 'image/heif', 'image/webp'],
  max_bytes: 4 * 1024 * 1024,
  source: PHOTO_UPLOADS,
};

/** Page videos (by file_url): the common video containers, up to 10 GB and 240 minutes. */
export const FACEBOOK_VIDEO: SandboxMediaRule = {
  types: ['video/mp4', 'video/quicktime', 'video/x-m4v', 'video/webm', 'video/x-msvideo', 'video/x-matroska', 'video/mpeg', 'video/3gpp'],
  max_bytes: 10 * 1024 ** 3,
  min_duration_s: 1,
  max_duration_s: 240 * 60,
  source: PAGE_VIDEOS,
};

export const FACEBOOK_RULES: PlatformRules = {
  media: { image: FACEBOOK_PHOTO, video: FACEBOOK_VIDEO },
  other: [
    { rule: 'a photo is pulled from `url`; one Facebook cannot take is refused (code 100, subcode 1366046)', source: PAGE_PHOTOS },
    { rule: 'several photos: each uploaded unpublished (published=false), then one feed post with attached_media [{media_fbid}] of this page', source: PAGE_PHOTOS },
    { rule: 'a video is pulled from `file_url`: unreachable → (#389), a format Facebook does not take → (#352), another problem → (#351)', source: PAGE_VIDEOS },
    { rule: 'a feed post needs message, link or attached_media', source: 'https://developers.facebook.com/docs/graph-api/reference/page/feed' },
  ],
};

const PHOTO_REFUSAL = "Your photos couldn't be uploaded. Photos should be less than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF or WebP files.";

/**
 * Facebook Pages Graph API: POST /:page/feed (message, attached_media), POST /:page/photos (url,
 * published=false), POST /:page/videos (file_url, description), GET /:page/posts (recent posts, `since`),
 * GET /:id (post fields: permalink_url, reactions/comments summaries, shares; the page), POST
 * /:id/comments, GET /:id/insights, DELETE /:id. Comments are kept in the post's `details.comments`.
 * Photos and videos are pulled from their URLs and read from their bytes (see FACEBOOK_RULES); a post records
 * the media it carried.
 */
const photos = new WeakMap<SandboxState, Map<string, { page: string; url: string; media: InspectedMedia }>>();
const photosOf = (state: SandboxState) => photos.get(state) ?? photos.set(state, new Map()).get(state)!;

const permalink = (account: string, id: string, video: boolean) => (video ? `/${account}/videos/${id}/` : `https://www.facebook.com/${account}/posts/${id.split('_')[1] ?? id}`);

function attachedMedia(raw: string | undefined): string[] | string {
  if (raw === undefined) return [];
  try {
    const items = JSON.parse(raw) as Array<{ media_fbid?: unknown }>;
    if (!Array.isArray(items) || items.some((i) => typeof i?.media_fbid !== 'string')) return '(#100) attached_media must be a list of {media_fbid}';
    return items.map((i) => i.media_fbid as string);
  } catch {
    return '(#100) attached_media must be JSON';
  }
}

export const facebook: SandboxPlatform = {
  name: 'facebook',
  rules: FACEBOOK_RULES,
  unauthorized: graphUnauthorized,
  routes: [
    {
      method: 'POST',
      path: '/:page/feed',
      creates: true,
      handle: withToken((req, state, params) => {
        const media = attachedMedia(params.attached_media);
        if (typeof media === 'string') return graphError(400, media, 100);
        if (!params.message && !params.link && !media.length) return graphError(400, '(#100) The post is empty: give message, link or attached_media', 100);
        for (const id of media) if (photosOf(state).get(id)?.page !== req.params.page) return graphError(400, `(#100) media_fbid ${id} is not an unpublished photo of this page`, 100);
        const attached = media.map((id) => photosOf(state).get(id)!);
        const post = state.createPost(
          'facebook',
          req.account!,
          params.message ?? '',
          { page: req.params.page, photos: attached.map((p) => p.url), comments: [] },
          `${req.params.page}_${graphId()}`,
          attached.map((p) => p.media),
        );
        return { status: 200, body: { id: post.id } };
      }),
    },
    {
      method: 'POST',
      path: '/:page/photos',
      handle: withTokenAsync(async (req, state, params) => {
        if (!params.url) return graphError(400, '(#324) Requires upload file', 324);
        if (params.published !== 'false') return graphError(400, 'sandbox: only unpublished photos (published=false) are modelled', 100);
        const fetched = await fetchMedia(params.url);
        const problem = 'error' in fetched ? fetched.error : mediaViolation(fetched.media, FACEBOOK_PHOTO);
        if (problem || 'error' in fetched)
          return graphError(400, 'Invalid parameter', 100, { error_subcode: 1366046, error_user_title: 'Photo upload failed', error_user_msg: `${PHOTO_REFUSAL} (${problem})` });
        const id = graphId();
        photosOf(state).set(id, { page: req.params.page!, url: params.url, media: fetched.media });
        return { status: 200, body: { id } };
      }),
    },
    {
      method: 'POST',
      path: '/:page/videos',
      creates: true,
      handle: withTokenAsync(async (req, state, params) => {
        if (!params.file_url) return graphError(400, '(#100) file_url or source is required', 100);
        const fetched = await fetchMedia(params.file_url);
        if ('error' in fetched) return graphError(400, `(#389) Unable to fetch video file from URL: ${fetched.error}`, 389);
        const problem = mediaViolation(fetched.media, FACEBOOK_VIDEO);
        if (problem) {
          return /unsupported media type/.test(problem)
            ? graphError(400, `(#352) Sorry, the video file you selected is in a format that we don't support: ${problem}`, 352)
            : graphError(400, `(#351) Sorry, there was a problem with your video file: ${problem}`, 351);
        }
        const post = state.createPost('facebook', req.account!, params.description ?? '', { page: req.params.page, video: params.file_url, comments: [] }, graphId(), [fetched.media]);
        return { status: 200, body: { id: post.id } };
      }),
    },
    {
      method: 'GET',
      path: '/:page/posts',
      handle: withToken((req, state, params) => {
        const since = Number(params.since ?? 0) * 1000;
        const data = state
          .postsOf('facebook', req.account)
          .filter((p) => p.details.page === req.params.page && p.createdAt.getTime() >= since)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .slice(0, Number(params.limit ?? 25))
          .map((p) => ({ id: p.id, message: p.text, created_time: graphTime(p.createdAt), permalink_url: permalink(p.account, p.id, Boolean(p.details.video)) }));
        return { status: 200, body: { data, paging: { cursors: { before: 'b', after: 'a' } } } };
      }),
    },
    {
      method: 'GET',
      path: '/:id',
      handle: withToken((req, state, params) => {
        const id = req.params.id!;
        const fields = requested(params);
        const post = state.find('facebook', id);
        if (!post) return (/^\d+$/.test(id) || id === `page-${req.account}`) && fields.has('name') ? { status: 200, body: { id, name: `${req.account} page` } } : notFound(id);
        const comments = (post.details.comments as string[]).length;
        const has = (prefix: string) => [...fields].some((f) => f.startsWith(prefix));
        return {
          status: 200,
          body: {
            id,
            ...(has('permalink_url') ? { permalink_url: permalink(post.account, id, Boolean(post.details.video)) } : {}),
            ...(has('reactions') ? { reactions: { data: [], summary: { total_count: 17, viewer_reaction: 'NONE' } } } : {}),
            ...(has('comments') ? { comments: { data: [], summary: { order: 'ranked', total_count: comments, can_comment: true } } } : {}),
            ...(has('shares') ? { shares: { count: 6 } } : {}),
          },
        };
      }),
    },
    {
      method: 'POST',
      path: '/:id/comments',
      handle: withToken((req, state, params) => {
        const post = state.find('facebook', req.params.id!);
        if (!post) return notFound(req.params.id!);
        if (!params.message) return graphError(400, '(#100) message is required', 100);
        (post.details.comments as string[]).push(params.message);
        return { status: 200, body: { id: `${post.id.split('_').pop()}_${graphId()}` } };
      }),
    },
    {
      method: 'GET',
      path: '/:id/insights',
      metrics: true,
      handle: withToken((req, state, params) => {
        const post = state.find('facebook', req.params.id!);
        if (!post) return notFound(req.params.id!);
        return insightsAnswer(
          post.id,
          { post_total_media_view_unique: state.grow(post, 900), post_clicks: state.grow(post, 42), post_reactions_by_type_total: { like: state.grow(post, 15), love: state.grow(post, 2) } },
          params,
        );
      }),
    },
    {
      method: 'DELETE',
      path: '/:id',
      handle: withToken((req, state) => (state.remove('facebook', req.params.id!) ? { status: 200, body: { success: true } } : notFound(req.params.id!))),
    },
  ],
};
