import { randomBytes } from 'node:crypto';
import type { SandboxPlatform, SandboxResponse } from '../router.js';
import type { SandboxState } from '../state.js';

/**
 * YouTube Data API v3: resumable upload (POST /upload/youtube/v3/videos?uploadType=resumable → 200 with a
 * `Location` session URL → PUT the bytes → Video resource), POST /youtube/v3/commentThreads, GET
 * /youtube/v3/channels?mine=true, GET /youtube/v3/playlistItems (the uploads playlist `UU<account>`),
 * GET /youtube/v3/videos?part=statistics, DELETE /youtube/v3/videos?id=. Comments are kept in the
 * video's `details.comments`. The account `noquota` answers 403 quotaExceeded, as a spent daily quota does.
 */
const googleError = (code: number, message: string, reason: string, domain = 'youtube.video'): SandboxResponse => ({
  status: code,
  body: { error: { code, message, errors: [{ message, domain, reason }] } },
});
const QUOTA = 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';

interface UploadSession {
  account: string;
  length: number;
  contentType: string;
  snippet: { title: string; description?: string; categoryId?: string };
  privacyStatus: string;
}
const sessions = new WeakMap<SandboxState, Map<string, UploadSession>>();
const sessionsOf = (state: SandboxState) => sessions.get(state) ?? sessions.set(state, new Map()).get(state)!;

const videoId = () => randomBytes(8).toString('base64url').slice(0, 11);

export const youtube: SandboxPlatform = {
  name: 'youtube',
  unauthorized: () => ({
    status: 401,
    body: {
      error: {
        code: 401,
        message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    },
  }),
  routes: [
    {
      method: 'POST',
      path: '/upload/youtube/v3/videos',
      handle: (req, state) => {
        if (req.account === 'noquota') return googleError(403, QUOTA, 'quotaExceeded', 'youtube.quota');
        const b = req.body as { snippet?: UploadSession['snippet']; status?: { privacyStatus?: string } } | undefined;
        const length = Number(req.headers['x-upload-content-length']);
        const contentType = String(req.headers['x-upload-content-type'] ?? '');
        if (req.query.get('uploadType') !== 'resumable' || !req.query.get('part')?.split(',').includes('snippet')) return googleError(400, 'Required parameter: part', 'required', 'global');
        if (!b?.snippet?.title || b.snippet.title.length > 100 || /[<>]/.test(b.snippet.title)) {
          return googleError(400, 'The request metadata specifies an invalid or empty video title.', 'invalidTitle');
        }
        if ((b.snippet.description?.length ?? 0) > 5000) return googleError(400, 'The request metadata specifies an invalid video description.', 'invalidDescription');
        if (!Number.isInteger(length) || length <= 0 || !(contentType.startsWith('video/') || contentType === 'application/octet-stream')) {
          return googleError(400, 'The request does not declare the upload length and a video content type.', 'badContent');
        }
        const uploadId = randomBytes(12).toString('hex');
        sessionsOf(state).set(uploadId, { account: req.account!, length, contentType, snippet: b.snippet, privacyStatus: b.status?.privacyStatus ?? 'private' });
        return { status: 200, headers: { location: `http://${req.headers.host}/youtube/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}` } };
      },
    },
    {
      method: 'PUT',
      path: '/upload/youtube/v3/videos',
      creates: true,
      handle: (req, state) => {
        const uploadId = req.query.get('upload_id') ?? '';
        const session = sessionsOf(state).get(uploadId);
        if (!session || session.account !== req.account) return googleError(404, 'The upload session does not exist.', 'notFound', 'global');
        if (req.raw.length !== session.length) return googleError(400, `Expected ${session.length} bytes, got ${req.raw.length}.`, 'badContent');
        sessionsOf(state).delete(uploadId);
        const channelId = `UC${session.account}`;
        const post = state.createPost(
          'youtube',
          session.account,
          session.snippet.description ?? '',
          {
            ...session.snippet,
            privacyStatus: session.privacyStatus,
            bytes: req.raw.length,
            contentType: session.contentType,
            channelId,
            comments: [],
          },
          videoId(),
        );
        return {
          status: 200,
          body: {
            kind: 'youtube#video',
            etag: post.id,
            id: post.id,
            snippet: { publishedAt: post.createdAt.toISOString(), channelId, title: session.snippet.title, description: post.text, categoryId: session.snippet.categoryId ?? '22' },
            status: { uploadStatus: 'uploaded', privacyStatus: session.privacyStatus },
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/youtube/v3/commentThreads',
      handle: (req, state) => {
        const b = req.body as { snippet?: { channelId?: string; videoId?: string; topLevelComment?: { snippet?: { textOriginal?: string } } } } | undefined;
        const text = b?.snippet?.topLevelComment?.snippet?.textOriginal;
        if (req.query.get('part') !== 'snippet' || !b?.snippet?.videoId || !text)
          return googleError(400, 'The comment thread needs snippet.videoId and snippet.topLevelComment.snippet.textOriginal.', 'invalidCommentMetadata');
        const video = state.find('youtube', b.snippet.videoId);
        if (!video) return googleError(404, 'The video identified by the videoId parameter could not be found.', 'videoNotFound');
        if (b.snippet.channelId !== video.details.channelId) return googleError(400, 'The channelId does not match the video.', 'invalidCommentMetadata');
        (video.details.comments as string[]).push(text);
        const id = `Ug${randomBytes(9).toString('base64url')}`;
        return {
          status: 200,
          body: { kind: 'youtube#commentThread', id, snippet: { ...b.snippet, topLevelComment: { kind: 'youtube#comment', id, snippet: { textOriginal: text, textDisplay: text } } } },
        };
      },
    },
    {
      method: 'GET',
      path: '/youtube/v3/channels',
      handle: (req) => {
        if (req.query.get('mine') !== 'true' || !req.query.get('part'))
          return googleError(400, 'Required parameter: part; a filter such as mine=true', 'missingRequiredParameter', 'youtube.parameter');
        return {
          status: 200,
          body: {
            kind: 'youtube#channelListResponse',
            items: [
              {
                kind: 'youtube#channel',
                id: `UC${req.account}`,
                snippet: { title: req.account, customUrl: `@${req.account}`, thumbnails: { default: { url: `https://sandbox.invalid/avatars/${req.account}.jpg` } } },
                contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${req.account}` } },
              },
            ],
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/youtube/v3/playlistItems',
      handle: (req, state) => {
        const playlist = req.query.get('playlistId') ?? '';
        if (req.query.get('part') !== 'snippet' || !playlist.startsWith('UU'))
          return googleError(404, 'The playlist identified with the request playlistId parameter cannot be found.', 'playlistNotFound');
        const items = state
          .postsOf('youtube', playlist.slice(2))
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .slice(0, Number(req.query.get('maxResults') ?? 5))
          .map((p, position) => ({
            kind: 'youtube#playlistItem',
            id: `PLI${p.id}`,
            snippet: {
              publishedAt: p.createdAt.toISOString(),
              channelId: p.details.channelId,
              title: p.details.title,
              description: p.text,
              playlistId: playlist,
              position,
              resourceId: { kind: 'youtube#video', videoId: p.id },
            },
          }));
        return { status: 200, body: { kind: 'youtube#playlistItemListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } } };
      },
    },
    {
      method: 'GET',
      path: '/youtube/v3/videos',
      handle: (req, state) => {
        if (!req.query.get('part')?.includes('statistics')) return googleError(400, 'Required parameter: part', 'required', 'global');
        const video = state.find('youtube', req.query.get('id') ?? '');
        const statistics = { viewCount: '1234', likeCount: '56', favoriteCount: '0', commentCount: String((video?.details.comments as string[] | undefined)?.length ?? 0) };
        return { status: 200, body: { kind: 'youtube#videoListResponse', items: video ? [{ kind: 'youtube#video', id: video.id, statistics }] : [], pageInfo: { totalResults: video ? 1 : 0 } } };
      },
    },
    {
      method: 'DELETE',
      path: '/youtube/v3/videos',
      handle: (req, state) => (state.remove('youtube', req.query.get('id') ?? '') ? { status: 204 } : googleError(404, 'The video that you are trying to delete cannot be found.', 'videoNotFound')),
    },
  ],
};
