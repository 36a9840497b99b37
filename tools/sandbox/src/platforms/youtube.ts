import { randomBytes } from 'node:crypto';
import { inspectMedia } from '../media/inspect.js';
import { mediaViolation, type SandboxMediaRule } from '../media/rules.js';
import type { PlatformRules, SandboxPlatform, SandboxResponse } from '../router.js';
import type { SandboxState } from '../state.js';

const INSERT = 'https://developers.google.com/youtube/v3/docs/videos/insert';
const RESUMABLE = 'https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol';
const VIDEO_RESOURCE = 'https://developers.google.com/youtube/v3/docs/videos';

/** What videos.insert takes: any video file (`video/*`) up to 256 GB; YouTube's longest upload is 12 hours. */
export const YOUTUBE_VIDEO: SandboxMediaRule = {
  types: ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-msvideo', 'video/x-matroska', 'video/mpeg', 'video/3gpp', 'video/x-flv', 'video/x-ms-asf', 'video/mp2t'],
  max_bytes: 256 * 1024 ** 3,
  max_duration_s: 12 * 3600,
  source: INSERT,
};

export const YOUTUBE_RULES: PlatformRules = {
  media: { video: YOUTUBE_VIDEO },
  other: [
    { rule: 'snippet.title is required, at most 100 characters, without < or > (400 invalidTitle)', source: VIDEO_RESOURCE },
    { rule: 'snippet.description at most 5000 bytes, without < or > (400 invalidDescription)', source: VIDEO_RESOURCE },
    { rule: 'status.privacyStatus is public, unlisted or private', source: VIDEO_RESOURCE },
    {
      rule: 'resumable upload: POST metadata (X-Upload-Content-Length/-Type) → Location session → PUT the bytes, whole or in Content-Range chunks (308 Resume Incomplete with Range until the last); an unknown or expired session answers 404',
      source: RESUMABLE,
    },
    { rule: 'a file YouTube cannot read as a video is answered with status.uploadStatus failed, failureReason invalidFile, and never published', source: VIDEO_RESOURCE },
  ],
};
const PRIVACY = ['public', 'unlisted', 'private'];

/**
 * YouTube Data API v3: resumable upload (POST /upload/youtube/v3/videos?uploadType=resumable → 200 with a
 * `Location` session URL → PUT the bytes → Video resource), POST /youtube/v3/commentThreads, GET
 * /youtube/v3/channels?mine=true, GET /youtube/v3/playlistItems (the uploads playlist `UU<account>`),
 * GET /youtube/v3/videos?part=statistics, DELETE /youtube/v3/videos?id=. Comments are kept in the
 * video's `details.comments`. The account `noquota` answers 403 quotaExceeded, as a spent daily quota does.
 * The uploaded bytes are read as YouTube's processing would (see YOUTUBE_RULES); the post records its title and
 * privacy status in `details` and the video's facts in `media`.
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
  /** Chunks received so far, in order (Content-Range uploads). */
  received: Buffer[];
  receivedBytes: number;
}
const sessions = new WeakMap<SandboxState, Map<string, UploadSession>>();
const sessionsOf = (state: SandboxState) => sessions.get(state) ?? sessions.set(state, new Map()).get(state)!;

const videoId = () => randomBytes(8).toString('base64url').slice(0, 11);

export const youtube: SandboxPlatform = {
  name: 'youtube',
  rules: YOUTUBE_RULES,
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
        if (!b?.snippet?.title?.trim() || [...b.snippet.title].length > 100 || /[<>]/.test(b.snippet.title)) {
          return googleError(400, 'The request metadata specifies an invalid or empty video title.', 'invalidTitle');
        }
        if (Buffer.byteLength(b.snippet.description ?? '') > 5000 || /[<>]/.test(b.snippet.description ?? '')) {
          return googleError(400, 'The request metadata specifies an invalid video description.', 'invalidDescription');
        }
        if (b.status?.privacyStatus !== undefined && !PRIVACY.includes(b.status.privacyStatus)) {
          return googleError(400, 'The request metadata specifies an invalid privacy status.', 'invalidVideoMetadata');
        }
        if (!Number.isInteger(length) || length <= 0 || !(contentType.startsWith('video/') || contentType === 'application/octet-stream')) {
          return googleError(400, 'The request does not declare the upload length and a video content type.', 'badContent');
        }
        const uploadId = randomBytes(12).toString('hex');
        sessionsOf(state).set(uploadId, { account: req.account!, length, contentType, snippet: b.snippet, privacyStatus: b.status?.privacyStatus ?? 'public', received: [], receivedBytes: 0 });
        return { status: 200, headers: { location: `http://${req.headers.host}/youtube/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}` } };
      },
    },
    {
      method: 'PUT',
      path: '/upload/youtube/v3/videos',
      creates: true,
      handle: async (req, state) => {
        const uploadId = req.query.get('upload_id') ?? '';
        const session = sessionsOf(state).get(uploadId);
        if (!session || session.account !== req.account) return googleError(404, 'The upload session does not exist or has expired.', 'notFound', 'global');
        const range = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(String(req.headers['content-range'] ?? ''));
        const resumeIncomplete = (): SandboxResponse => ({ status: 308, headers: session.receivedBytes ? { range: `bytes=0-${session.receivedBytes - 1}` } : {} });
        if (range && range[1] === undefined) return session.receivedBytes === session.length ? googleError(400, 'The upload is already complete.', 'badRequest', 'global') : resumeIncomplete();
        if (range) {
          const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
          if (total !== session.length || first !== session.receivedBytes || last - first + 1 !== req.raw.length) {
            return googleError(400, `Content-Range ${String(req.headers['content-range'])} does not continue the ${session.receivedBytes} bytes received of ${session.length}.`, 'badContent');
          }
          session.received.push(req.raw);
          session.receivedBytes += req.raw.length;
          if (session.receivedBytes < session.length) return resumeIncomplete();
        } else {
          if (session.receivedBytes || req.raw.length !== session.length) return googleError(400, `Expected ${session.length} bytes, got ${req.raw.length}.`, 'badContent');
          session.received.push(req.raw);
        }
        sessionsOf(state).delete(uploadId);
        const bytes = Buffer.concat(session.received);
        const media = await inspectMedia(bytes);
        const channelId = `UC${session.account}`;
        if (mediaViolation(media, YOUTUBE_VIDEO)) {
          // YouTube takes the bytes, then its processing cannot read them: the video fails and is never published.
          return {
            status: 200,
            body: {
              kind: 'youtube#video',
              id: videoId(),
              snippet: { channelId, title: session.snippet.title },
              status: { uploadStatus: 'failed', failureReason: 'invalidFile', privacyStatus: session.privacyStatus },
            },
          };
        }
        const post = state.createPost(
          'youtube',
          session.account,
          session.snippet.description ?? '',
          { ...session.snippet, privacyStatus: session.privacyStatus, privacy_status: session.privacyStatus, bytes: bytes.length, contentType: session.contentType, channelId, comments: [] },
          videoId(),
          [media],
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
