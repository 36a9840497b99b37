import type { SandboxPlatform, SandboxResponse } from '../router.js';
import type { SandboxPost } from '../state.js';

/**
 * Pinterest API v5: POST /v5/pins (board_id, title, description, link, media_source image_url |
 * multiple_image_urls), GET /v5/boards/:board_id/pins, DELETE /v5/pins/:id, GET /v5/pins/:id/analytics
 * (start_date, end_date, metric_types → all.summary_metrics), GET /v5/user_account, GET /v5/boards (three boards per
 * account, `page_size` and `bookmark` paging).
 * Errors are `{code, message}`.
 */
const error = (status: number, code: number, message: string): SandboxResponse => ({ status, body: { code, message } });

/** Pinterest's timestamp format: seconds, explicit offset. */
const timestamp = (at: Date) => `${at.toISOString().slice(0, 19)}-00:00`;

function pin(post: SandboxPost) {
  return { id: post.id, created_at: timestamp(post.createdAt), description: post.text, ...post.details };
}

/** Fixed lifetime numbers per pin, so the connector's mapping can be checked exactly. */
const SUMMARY: Record<string, number> = { IMPRESSION: 120, SAVE: 5, PIN_CLICK: 9, OUTBOUND_CLICK: 3, TOTAL_COMMENTS: 2, TOTAL_REACTIONS: 8 };

export const pinterest: SandboxPlatform = {
  name: 'pinterest',
  unauthorized: () => error(401, 2, 'Authentication failed.'),
  routes: [
    {
      method: 'POST',
      path: '/v5/pins',
      creates: true,
      handle: (req, state) => {
        const body = (req.body ?? {}) as {
          board_id?: string;
          title?: string;
          description?: string;
          link?: string;
          media_source?: { source_type?: string; url?: string; items?: Array<{ url?: string }> };
        };
        if (!body.board_id) return error(400, 1, 'Invalid parameters: board_id is required.');
        if ((body.description?.length ?? 0) > 500 || (body.title?.length ?? 0) > 100) return error(400, 1, 'Invalid parameters: title or description too long.');
        const source = body.media_source;
        const valid =
          (source?.source_type === 'image_url' && !!source.url) ||
          (source?.source_type === 'multiple_image_urls' && (source.items?.length ?? 0) >= 2 && (source.items?.length ?? 0) <= 5 && source.items!.every((i) => !!i.url));
        if (!valid) return error(400, 1, 'Invalid parameters: media_source.');
        const media_type = source?.source_type === 'image_url' ? 'image' : 'multiple_images';
        const post = state.createPost(
          'pinterest',
          req.account!,
          body.description ?? '',
          {
            board_id: body.board_id,
            title: body.title ?? '',
            link: body.link ?? null,
            media_source: source,
            media: { media_type },
          },
          String(Date.now()) + String(Math.floor(Math.random() * 1e4)).padStart(4, '0'),
        );
        return { status: 201, body: pin(post) };
      },
    },
    {
      method: 'GET',
      path: '/v5/boards/:board_id/pins',
      handle: (req, state) => {
        const items = state
          .postsOf('pinterest', req.account)
          .filter((p) => p.details.board_id === req.params.board_id)
          .reverse()
          .map(pin);
        return { status: 200, body: { items, bookmark: null } };
      },
    },
    {
      method: 'DELETE',
      path: '/v5/pins/:id',
      handle: (req, state) => (state.remove('pinterest', req.params.id!) ? { status: 204 } : error(404, 50, 'Pin not found.')),
    },
    {
      method: 'GET',
      path: '/v5/pins/:id/analytics',
      handle: (req, state) => {
        if (!state.find('pinterest', req.params.id!)) return error(404, 50, 'Pin not found.');
        const [start, end, types] = ['start_date', 'end_date', 'metric_types'].map((k) => req.query.get(k));
        if (!start || !end || !types) return error(400, 1, 'Invalid parameters: start_date, end_date and metric_types are required.');
        if (Date.parse(start) < Date.now() - 91 * 86_400_000) return error(400, 1, 'Invalid parameters: start_date is more than 90 days ago.');
        const summary = Object.fromEntries(
          types
            .split(',')
            .filter((t) => t in SUMMARY)
            .map((t) => [t, SUMMARY[t]]),
        );
        return { status: 200, body: { all: { daily_metrics: [], summary_metrics: summary, lifetime_metrics: summary } } };
      },
    },
    {
      method: 'GET',
      path: '/v5/boards',
      handle: (req) => {
        const all = ['Ideas', 'Recipes', 'Travel'].map((name, i) => ({
          id: `${req.account}-board-${i + 1}`,
          name,
          description: i === 0 ? `${req.account}'s ideas` : null,
          privacy: i === 2 ? 'SECRET' : 'PUBLIC',
          owner: { username: req.account },
        }));
        const size = Math.min(Math.max(Number(req.query.get('page_size') ?? 25), 1), 250);
        const start = Number(req.query.get('bookmark') ?? 0);
        const items = all.slice(start, start + size);
        return { status: 200, body: { items, bookmark: start + size < all.length ? String(start + size) : null } };
      },
    },
    {
      method: 'GET',
      path: '/v5/user_account',
      handle: (req) => ({ status: 200, body: { username: req.account, account_type: 'BUSINESS', board_count: 1, pin_count: 0 } }),
    },
  ],
};
