import { callPlatform, field, type CallOptions, type HttpAnswer } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * YouTube Data API v3 with a Google OAuth 2.0 bearer token (scopes `youtube.upload`; `youtube.force-ssl`
 * for comments; `youtube.readonly` for findPublished and validateCredentials).
 *
 * Credentials: only `access_token`.
 *
 * - A post is the first video of the first part, uploaded with the resumable protocol: POST the
 *   metadata to `/upload/youtube/v3/videos?uploadType=resumable` → `Location` header → PUT the bytes →
 *   Video resource. Title = the first line of the text (≤100 chars, no `<>`), description = the text.
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

export function youtubeConnector(baseUrl = 'https://www.googleapis.com'): Connector {
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

  async function upload(target: TargetAccount, part: ContentPart): Promise<{ id: string; channelId: string }> {
    const video = part.media.find((m) => m.type === 'video');
    if (!video) throw new ConnectorError('rejected', 'youtube: a post needs a video');
    const { bytes, contentType } = await video.read();
    const session = await call(`${baseUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: { ...auth(target), 'x-upload-content-type': contentType, 'x-upload-content-length': String(bytes.length) },
      body: {
        snippet: { title: youtubeTitle(part.body), description: part.body, categoryId: '22' },
        status: { privacyStatus: 'public', selfDeclaredMadeForKids: false },
      },
    });
    const location = session.headers.get('location');
    if (!location) throw new ConnectorError('transient', 'youtube: the resumable upload answered no Location');
    const answer = await call(location, {
      method: 'PUT',
      headers: { ...auth(target), 'content-type': contentType },
      body: bytes,
      timeoutMs: 60_000 + Math.ceil(bytes.length / 1000), // at least 1 MB/s
    });
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
      const { id, channelId } = await upload(target, first);
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
      const s = field<Record<string, string | undefined>>(answer.body, 'items.0.statistics');
      const n = (v: string | undefined) => Number(v ?? 0);
      return { impressions: n(s.viewCount), likes: n(s.likeCount), replies: n(s.commentCount), reposts: 0, clicks: 0 };
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await call(`${api}/channels?part=id&mine=true`, { headers: auth(target) });
      return true;
    },
  };
}
