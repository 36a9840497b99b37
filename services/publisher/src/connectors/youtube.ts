import { callPlatform, field, type CallOptions, type HttpAnswer } from './http.js';
import { ConnectorError, postGone, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * YouTube Data API v3 with a Google OAuth 2.0 bearer token (scopes `youtube.upload`; `youtube.force-ssl`
 * for comments; `youtube.readonly` for findPublished and validateCredentials).
 *
 * Credentials: only `access_token`.
 *
 * - A post is the video of the first part (one video; anything else is refused), uploaded with the
 *   resumable protocol: POST the metadata to `/upload/youtube/v3/videos?uploadType=resumable` → `Location`
 *   header → PUT the bytes, whole up to `chunkBytes` (default 8 MiB), else in `Content-Range` chunks each
 *   answered 308 Resume Incomplete until the last → Video resource. A video YouTube cannot process
 *   (`status.uploadStatus` failed or rejected) is refused with YouTube's reason.
 * - Title: the `title` option, else the first line of the text (`<` and `>` removed, cut to 100
 *   characters); YouTube requires one, so a post with neither is refused, as is a `title` option over 100
 *   characters or with `<`/`>` (checked in `preflight` too). Description = the text, refused over 5000
 *   bytes or with `<`/`>` (YouTube's rule). Privacy: the
 *   `privacy_status` option (public, unlisted, private), default public.
 * - YouTube has no threads: the first comment, then the parts after the first, become top-level
 *   comments (`commentThreads.insert`).
 * - findPublished lists the channel's uploads playlist (`channels.list mine=true` → `playlistItems.list`).
 * - Metrics: `videos.list part=statistics` → views as impressions, likes, comments; no reposts or clicks.
 * - A 403 `quotaExceeded` / `rateLimitExceeded` is a quota, not a refusal: rate_limited.
 */
// The error text is cut at 300 characters, before `errors[].reason`: match the message too.
const QUOTA_REASONS = /quota|rate ?limit|uploadLimitExceeded/i;

export function youtubeTitle(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/[<>]/g, '').trim().slice(0, 100);
}

/** The video's title: the post's `title` option, else the text's first line; refused when YouTube would refuse it. */
export function titleOf(part: ContentPart): string {
  const title = part.options?.title ?? youtubeTitle(part.body);
  if (!title.trim()) throw new ConnectorError('rejected', 'youtube: a video needs a title: set the title option or start the text with a line');
  if ([...title].length > 100) throw new ConnectorError('rejected', `youtube: the title is ${[...title].length} characters; YouTube takes at most 100`);
  if (/[<>]/.test(title)) throw new ConnectorError('rejected', 'youtube: the title cannot contain < or >');
  return title;
}

/** The video's description: the text, which YouTube takes up to 5000 bytes and without `<` or `>`. */
export function descriptionOf(part: ContentPart): string {
  const bytes = Buffer.byteLength(part.body);
  if (bytes > 5000) throw new ConnectorError('rejected', `youtube: the description (the text) is ${bytes} bytes; YouTube takes at most 5000`);
  if (/[<>]/.test(part.body)) throw new ConnectorError('rejected', 'youtube: the description (the text) cannot contain < or >');
  return part.body;
}

/** The part's one video; anything else cannot be published to YouTube. */
function videoOf(part: ContentPart) {
  const videos = part.media.filter((m) => m.type === 'video');
  const other = part.media.find((m) => m.type !== 'video');
  if (other) throw new ConnectorError('rejected', `youtube: a YouTube post is one video; it cannot carry ${other.type === 'image' ? 'an image' : `a ${other.type}`} (${other.r2Key})`);
  if (videos.length !== 1) throw new ConnectorError('rejected', `youtube: a YouTube post is one video, this one has ${videos.length}`);
  return videos[0]!;
}

/** Resumable upload chunks must be multiples of 256 KiB. */
const CHUNK_UNIT = 256 * 1024;

export function youtubeConnector(baseUrl = 'https://www.googleapis.com', upload: { chunkBytes?: number } = {}): Connector {
  const chunkBytes = Math.max(CHUNK_UNIT, Math.floor((upload.chunkBytes ?? 8 * 1024 * 1024) / CHUNK_UNIT) * CHUNK_UNIT);
  const api = `${baseUrl}/youtube/v3`;
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });
  const permalink = (id: string) => `https://www.youtube.com/watch?v=${id}`;

  async function call(url: string, options: CallOptions = {}): Promise<HttpAnswer> {
    try {
      return await callPlatform(url, options);
    } catch (err) {
      if (err instanceof ConnectorError && err.status === 403 && QUOTA_REASONS.test(err.message)) {
        throw new ConnectorError('rate_limited', err.message, undefined, 403);
      }
      throw err;
    }
  }

  /** PUTs the bytes to the upload session, whole or in Content-Range chunks; answers YouTube's final answer. */
  async function send(target: TargetAccount, location: string, bytes: Buffer, contentType: string): Promise<HttpAnswer> {
    const timeoutMs = (n: number) => 60_000 + Math.ceil(n / 1000); // at least 1 MB/s
    if (bytes.length <= chunkBytes) return call(location, { method: 'PUT', headers: { ...auth(target), 'content-type': contentType }, body: bytes, timeoutMs: timeoutMs(bytes.length) });
    for (let first = 0; ; first += chunkBytes) {
      const chunk = bytes.subarray(first, first + chunkBytes);
      const range = `bytes ${first}-${first + chunk.length - 1}/${bytes.length}`;
      try {
        const answer = await call(location, { method: 'PUT', headers: { ...auth(target), 'content-type': contentType, 'content-range': range }, body: chunk, timeoutMs: timeoutMs(chunk.length) });
        return answer;
      } catch (err) {
        // 308 Resume Incomplete: YouTube has the bytes so far and waits for the next chunk.
        if (!(err instanceof ConnectorError && err.status === 308) || first + chunk.length >= bytes.length) throw err;
      }
    }
  }

  async function uploadVideo(target: TargetAccount, part: ContentPart): Promise<{ id: string; channelId: string }> {
    const video = videoOf(part);
    const title = titleOf(part);
    const description = descriptionOf(part);
    const { bytes, contentType } = await video.read();
    const session = await call(`${baseUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: { ...auth(target), 'x-upload-content-type': contentType, 'x-upload-content-length': String(bytes.length) },
      body: {
        snippet: { title, description, categoryId: '22' },
        status: { privacyStatus: part.options?.privacy_status ?? 'public', selfDeclaredMadeForKids: false },
      },
    });
    const location = session.headers.get('location');
    if (!location) throw new ConnectorError('transient', 'youtube: the resumable upload answered no Location');
    const answer = await send(target, location, bytes, contentType);
    const status = (answer.body as { status?: { uploadStatus?: string; failureReason?: string; rejectionReason?: string } }).status;
    if (status?.uploadStatus === 'failed' || status?.uploadStatus === 'rejected') {
      throw new ConnectorError(
        'rejected',
        `youtube: YouTube could not publish the video ${video.r2Key}: ${status.uploadStatus} (${status.failureReason ?? status.rejectionReason ?? 'no reason given'})`,
      );
    }
    return { id: field<string>(answer.body, 'id'), channelId: field<string>(answer.body, 'snippet.channelId') };
  }

  async function comment(target: TargetAccount, videoId: string, channelId: string, text: string): Promise<void> {
    await call(`${api}/commentThreads?part=snippet`, {
      method: 'POST',
      headers: auth(target),
      body: { snippet: { channelId, videoId, topLevelComment: { snippet: { textOriginal: text } } } },
    });
  }

  async function uploadsPlaylist(target: TargetAccount): Promise<string> {
    const answer = await call(`${api}/channels?part=contentDetails&mine=true`, { headers: auth(target) });
    return field<string>(answer.body, 'items.0.contentDetails.relatedPlaylists.uploads');
  }

  return {
    platform: 'youtube',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const [first, ...rest] = parts;
      if (!first) throw new Error('nothing to publish');
      const { id, channelId } = await uploadVideo(target, first);
      if (first.firstComment) await comment(target, id, channelId, first.firstComment);
      for (const part of rest) await comment(target, id, channelId, part.body);
      return { platformPostId: id, permalink: permalink(id) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const playlist = await uploadsPlaylist(target);
      const answer = await call(`${api}/playlistItems?part=snippet&maxResults=50&playlistId=${encodeURIComponent(playlist)}`, { headers: auth(target) });
      type Item = { snippet?: { publishedAt?: string; description?: string; resourceId?: { videoId?: string } } };
      const items = (answer.body as { items?: Item[] }).items ?? [];
      const found = items.find((i) => i.snippet?.description === parts[0]?.body && Date.parse(i.snippet?.publishedAt ?? '') >= since.getTime());
      const id = found?.snippet?.resourceId?.videoId;
      return id ? { platformPostId: id, permalink: permalink(id) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await call(`${api}/videos?id=${encodeURIComponent(platformPostId)}`, { method: 'DELETE', headers: auth(target) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const answer = await call(`${api}/videos?part=statistics&id=${encodeURIComponent(platformPostId)}`, { headers: auth(target) });
      // A deleted (or removed) video is left out of `items`.
      if (!(answer.body as { items?: unknown[] }).items?.length) throw postGone(`youtube: video ${platformPostId} no longer exists`);
      const s = field<Record<string, string | undefined>>(answer.body, 'items.0.statistics');
      // A count the owner hid (likes) is absent: null, as are reposts and clicks, which YouTube does not report.
      const n = (v: string | undefined) => (v === undefined ? null : Number(v));
      return { impressions: n(s.viewCount), likes: n(s.likeCount), replies: n(s.commentCount), reposts: null, clicks: null };
    },

    /** The video and its title must make a YouTube upload; nothing is sent. */
    async preflight({ parts }: PublishRequest): Promise<void> {
      if (!parts[0]) return;
      videoOf(parts[0]);
      titleOf(parts[0]);
      descriptionOf(parts[0]);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await call(`${api}/channels?part=id&mine=true`, { headers: auth(target) });
      return true;
    },
  };
}
