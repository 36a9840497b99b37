import { callPlatform, field } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Pinterest (API v5, OAuth 2.0 bearer). Credentials besides `access_token`: `board_id`, the board pins go to.
 * A pin needs media: one image → `media_source.image_url`, 2–5 → `multiple_image_urls` (a carousel), from
 * `MediaItem.url` (Pinterest pulls them). The post body is the description; its first line (≤100 chars) the
 * title; its first URL the pin's link. Video pins (upload through `/v5/media`) are not supported here.
 * Metrics: lifetime summary of `/v5/pins/{id}/analytics` (analytics cover the last 90 days).
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

export function pinterestConnector(baseUrl = 'https://api.pinterest.com'): PinterestConnector {
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });
  const permalink = (id: string) => `https://www.pinterest.com/pin/${id}/`;
  const boardOf = (t: TargetAccount) => {
    const board = t.credentials.board_id;
    if (!board) throw new ConnectorError('rejected', 'pinterest: the account has no board_id');
    return board;
  };

  function mediaSource(part: ContentPart): Record<string, unknown> {
    if (part.media.some((m) => m.type !== 'image')) throw new ConnectorError('rejected', 'pinterest: only image pins are supported');
    const urls = part.media.map((m) => m.url);
    if (urls.length === 0) throw new ConnectorError('rejected', 'pinterest: a pin needs an image');
    if (urls.length === 1) return { source_type: 'image_url', url: urls[0] };
    return { source_type: 'multiple_image_urls', items: urls.map((url) => ({ url })), index: 0 };
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
      const link = /https?:\/\/\S+/.exec(part.body)?.[0];
      const answer = await callPlatform(`${baseUrl}/v5/pins`, {
        method: 'POST',
        headers: auth(target),
        body: {
          board_id: boardOf(target),
          title: (part.body.split('\n')[0] ?? '').slice(0, 100),
          description: part.body,
          ...(link ? { link } : {}),
          media_source: mediaSource(part),
        },
      });
      const id = field<string>(answer.body, 'id');
      return { platformPostId: id, permalink: permalink(id) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const answer = await callPlatform(`${baseUrl}/v5/boards/${encodeURIComponent(boardOf(target))}/pins?page_size=100`, { headers: auth(target) });
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
      const m = field<Record<string, number>>(answer.body, 'all.summary_metrics');
      return { impressions: m.IMPRESSION ?? 0, likes: m.TOTAL_REACTIONS ?? 0, replies: m.TOTAL_COMMENTS ?? 0, reposts: m.SAVE ?? 0, clicks: m.OUTBOUND_CLICK ?? 0 };
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await callPlatform(`${baseUrl}/v5/user_account`, { headers: auth(target) });
      return true;
    },
  };
}
