import { setTimeout as sleep } from 'node:timers/promises';
import { callPlatform, field } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type MediaItem, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Pinterest (API v5, OAuth 2.0 bearer). Credentials besides `access_token`: `board_id`, the account's default
 * board (the first board listed when it was connected).
 *
 * - Board: the post's `board_id` option, else the account's default board. `preflight` (dry runs too) checks
 *   the board still exists with GET /v5/boards/{id}.
 * - Title: the `title` option, else the body's first line (≤100 chars). Link: the `link` option, else the
 *   body's first URL. The body is the description.
 * - Images, pulled by Pinterest from `MediaItem.url`: one → `image_url`, 2–5 → `multiple_image_urls` (a
 *   carousel); more than 5 is refused.
 * - A video: registered with POST /v5/media, its bytes POSTed to the answered `upload_url` with every
 *   `upload_parameters` field, GET /v5/media/{id} polled until `succeeded` (`failed` → rejected; still
 *   processing after the polls → transient, nothing was pinned), then a pin with `media_source.video_id`.
 *   Its cover: the post's image when it has one beside the video, else the video's first frame
 *   (`cover_image_key_frame_time: 0`). A video pin takes one video and at most one (cover) image.
 * - Metrics: lifetime summary of `/v5/pins/{id}/analytics` (last 90 days); a metric it does not report is null.
 */
/** One of the account's boards, as GET /v5/boards lists it. */
export interface PinterestBoard {
  id: string;
  name: string;
  description: string | null;
  privacy: string;
}

export interface PinterestConnector extends Connector {
  /** Every board of the account (GET /v5/boards, followed through its bookmarks; at most 1000). */
  boards(target: TargetAccount): Promise<PinterestBoard[]>;
}

export interface PinterestPolling {
  /** Wait between two reads of a video's processing status (default 3 s). */
  intervalMs?: number;
  /** Status reads before giving up (default 100: five minutes at the default interval). */
  maxPolls?: number;
}

export function pinterestConnector(baseUrl = 'https://api.pinterest.com', polling: PinterestPolling = {}): PinterestConnector {
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });
  const permalink = (id: string) => `https://www.pinterest.com/pin/${id}/`;
  /** The post's board, else the account's default board. */
  const boardOf = (t: TargetAccount, part?: ContentPart) => {
    const board = part?.options?.board_id ?? t.credentials.board_id;
    if (!board) throw new ConnectorError('rejected', 'pinterest: no board_id: the post names none and the account has no default board');
    return board;
  };

  /** The pin's media, checked before anything is sent: images (1–5) or one video with at most one cover image. */
  function mediaPlan(part: ContentPart): { images: MediaItem[]; video?: MediaItem } {
    const images = part.media.filter((m) => m.type === 'image');
    const videos = part.media.filter((m) => m.type === 'video');
    const other = part.media.find((m) => m.type !== 'image' && m.type !== 'video');
    if (other) throw new ConnectorError('rejected', `pinterest: a pin cannot carry a ${other.type} (${other.r2Key})`);
    if (videos.length > 1) throw new ConnectorError('rejected', `pinterest: a pin carries one video, this post has ${videos.length}`);
    if (videos.length === 1) {
      if (images.length > 1) throw new ConnectorError('rejected', 'pinterest: a video pin takes at most one image, its cover');
      return { images, video: videos[0] };
    }
    if (images.length === 0) throw new ConnectorError('rejected', 'pinterest: a pin needs an image or a video');
    if (images.length > 5) throw new ConnectorError('rejected', `pinterest: a carousel pin takes 2 to 5 images, this post has ${images.length}`);
    return { images };
  }

  /** Registers the video with Pinterest, uploads it and waits until Pinterest has processed it; answers its media id. */
  async function uploadVideo(target: TargetAccount, video: MediaItem): Promise<string> {
    const registered = await callPlatform(`${baseUrl}/v5/media`, { method: 'POST', headers: auth(target), body: { media_type: 'video' } });
    const mediaId = String(field<string>(registered.body, 'media_id'));
    const uploadUrl = field<string>(registered.body, 'upload_url');
    const parameters = field<Record<string, string>>(registered.body, 'upload_parameters');
    const { bytes, contentType } = await video.read();
    const form = new FormData();
    for (const [name, value] of Object.entries(parameters)) form.set(name, value);
    form.set('file', new Blob([new Uint8Array(bytes)], { type: contentType }), 'video');
    await callPlatform(uploadUrl, { method: 'POST', body: form, timeoutMs: 60_000 + Math.ceil(bytes.length / 1000) });
    const maxPolls = polling.maxPolls ?? 100;
    for (let poll = 0; poll < maxPolls; poll++) {
      if (poll > 0) await sleep(polling.intervalMs ?? 3000);
      const status = field<string>((await callPlatform(`${baseUrl}/v5/media/${encodeURIComponent(mediaId)}`, { headers: auth(target) })).body, 'status');
      if (status === 'succeeded') return mediaId;
      if (status === 'failed') throw new ConnectorError('rejected', `pinterest: Pinterest could not process the video ${video.r2Key} (media ${mediaId} failed)`);
    }
    throw new ConnectorError('transient', `pinterest: the video ${video.r2Key} was still processing after ${maxPolls} status reads`);
  }

  async function mediaSource(target: TargetAccount, part: ContentPart): Promise<Record<string, unknown>> {
    const { images, video } = mediaPlan(part);
    if (video) {
      const cover = images[0] ? { cover_image_url: images[0].url } : { cover_image_key_frame_time: 0 };
      return { source_type: 'video_id', media_id: await uploadVideo(target, video), ...cover };
    }
    if (images.length === 1) return { source_type: 'image_url', url: images[0]!.url };
    return { source_type: 'multiple_image_urls', items: images.map((m) => ({ url: m.url })), index: 0 };
  }

  /** Pinterest timestamps carry seconds only (and sometimes no zone: UTC). */
  const createdAt = (value: string) => Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  const day = (at: Date) => at.toISOString().slice(0, 10);

  return {
    platform: 'pinterest',

    async boards(target: TargetAccount): Promise<PinterestBoard[]> {
      const boards: PinterestBoard[] = [];
      let bookmark: string | undefined;
      do {
        const query = new URLSearchParams({ page_size: '100', ...(bookmark ? { bookmark } : {}) });
        const answer = await callPlatform(`${baseUrl}/v5/boards?${query}`, { headers: auth(target) });
        const body = answer.body as { items?: Array<{ id: string; name: string; description?: string | null; privacy?: string }>; bookmark?: string | null };
        for (const b of body.items ?? []) boards.push({ id: String(b.id), name: b.name, description: b.description ?? null, privacy: b.privacy ?? 'PUBLIC' });
        bookmark = body.bookmark ?? undefined;
      } while (bookmark && boards.length < 1000);
      return boards;
    },

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const part = parts[0];
      if (!part) throw new Error('nothing to publish');
      const board = boardOf(target, part);
      const link = part.options?.link ?? /https?:\/\/\S+/.exec(part.body)?.[0];
      const answer = await callPlatform(`${baseUrl}/v5/pins`, {
        method: 'POST',
        headers: auth(target),
        body: {
          board_id: board,
          title: part.options?.title ?? (part.body.split('\n')[0] ?? '').slice(0, 100),
          description: part.body,
          ...(link ? { link } : {}),
          media_source: await mediaSource(target, part),
        },
      });
      const id = field<string>(answer.body, 'id');
      return { platformPostId: id, permalink: permalink(id) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const answer = await callPlatform(`${baseUrl}/v5/boards/${encodeURIComponent(boardOf(target, parts[0]))}/pins?page_size=100`, { headers: auth(target) });
      const from = Math.floor(since.getTime() / 1000) * 1000;
      const pins = (answer.body as { items?: Array<{ id: string; description?: string; created_at?: string }> }).items ?? [];
      const found = pins.find((p) => p.description === parts[0]?.body && createdAt(p.created_at ?? '') >= from);
      return found ? { platformPostId: found.id, permalink: permalink(found.id) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await callPlatform(`${baseUrl}/v5/pins/${encodeURIComponent(platformPostId)}`, { method: 'DELETE', headers: auth(target) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const end = new Date();
      const start = new Date(end.getTime() - 89 * 86_400_000);
      const query = new URLSearchParams({
        start_date: day(start),
        end_date: day(end),
        metric_types: 'IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,TOTAL_COMMENTS,TOTAL_REACTIONS',
      });
      const answer = await callPlatform(`${baseUrl}/v5/pins/${encodeURIComponent(platformPostId)}/analytics?${query}`, { headers: auth(target) });
      const m = field<Record<string, number | undefined>>(answer.body, 'all.summary_metrics');
      return { impressions: m.IMPRESSION ?? null, likes: m.TOTAL_REACTIONS ?? null, replies: m.TOTAL_COMMENTS ?? null, reposts: m.SAVE ?? null, clicks: m.OUTBOUND_CLICK ?? null };
    },

    /** The pin's board must exist (GET /v5/boards/{id}), and its media must make a pin; nothing is created. */
    async preflight({ target, parts }: PublishRequest): Promise<void> {
      const part = parts[0];
      if (!part) return;
      mediaPlan(part);
      const board = boardOf(target, part);
      try {
        await callPlatform(`${baseUrl}/v5/boards/${encodeURIComponent(board)}`, { headers: auth(target) });
      } catch (err) {
        if (err instanceof ConnectorError && err.status === 404) throw new ConnectorError('rejected', `pinterest: board ${board} is not one of the account's boards`, undefined, 404);
        throw err;
      }
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await callPlatform(`${baseUrl}/v5/user_account`, { headers: auth(target) });
      return true;
    },
  };
}
