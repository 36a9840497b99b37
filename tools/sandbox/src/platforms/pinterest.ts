import { sandboxBoardId } from '@spa/platforms';
import type { SandboxPlatform } from '../router.js';
import type { SandboxPost } from '../state.js';
import { mediaRoutes, pinMedia, type MediaSource } from './pinterest/media.js';
import { PINTEREST_LIMITS, PINTEREST_RULES, pinterestError as error } from './pinterest/rules.js';

export { PINTEREST_IMAGE, PINTEREST_VIDEO, PINTEREST_RULES } from './pinterest/rules.js';

/**
 * Pinterest API v5: POST /v5/pins (board_id — one of the account's boards —, title, description, link,
 * media_source image_url | image_base64 | multiple_image_urls | video_id; each image fetched and read from its
 * bytes, see PINTEREST_RULES), video registration (POST /v5/media, the upload form, GET /v5/media/:id: see
 * pinterest/media.ts), GET /v5/boards/:board_id, GET /v5/boards/:board_id/pins, DELETE /v5/pins/:id, GET /v5/pins/:id/analytics
 * (start_date, end_date, metric_types → all.summary_metrics), GET /v5/user_account, GET /v5/boards (three boards per
 * account, `page_size` and `bookmark` paging).
 * Errors are `{code, message}`.
 */

/** The account's boards: three per account, the first being its default. */
const boardsOf = (account: string | undefined) =>
  ['Ideas', 'Recipes', 'Travel'].map((name, i) => ({
    id: sandboxBoardId(account ?? '', i + 1),
    name,
    description: i === 0 ? `${account}'s ideas` : null,
    privacy: i === 2 ? 'SECRET' : 'PUBLIC',
    owner: { username: account },
  }));

/** Pinterest's timestamp format: seconds, explicit offset. */
const timestamp = (at: Date) => `${at.toISOString().slice(0, 19)}-00:00`;

function pin(post: SandboxPost) {
  return { id: post.id, created_at: timestamp(post.createdAt), description: post.text, ...post.details };
}

/** Fixed lifetime numbers per pin, so the connector's mapping can be checked exactly. */
const SUMMARY: Record<string, number> = { IMPRESSION: 120, SAVE: 5, PIN_CLICK: 9, OUTBOUND_CLICK: 3, TOTAL_COMMENTS: 2, TOTAL_REACTIONS: 8 };

export const pinterest: SandboxPlatform = {
  name: 'pinterest',
  rules: PINTEREST_RULES,
  unauthorized: () => error(401, 2, 'Authentication failed.'),
  routes: [
    {
      method: 'POST',
      path: '/v5/pins',
      creates: true,
      handle: async (req, state) => {
        const body = (req.body ?? {}) as { board_id?: string; title?: string; description?: string; link?: string; media_source?: MediaSource };
        if (!body.board_id) return error(400, 1, 'Invalid parameters: board_id is required.');
        if (!boardsOf(req.account).some((b) => b.id === body.board_id)) return error(404, 40, `Board not found: ${body.board_id}.`);
        if ((body.title?.length ?? 0) > PINTEREST_LIMITS.title) return error(400, 1, `Invalid parameters: title is longer than ${PINTEREST_LIMITS.title} characters.`);
        if ((body.description?.length ?? 0) > PINTEREST_LIMITS.description) return error(400, 1, `Invalid parameters: description is longer than ${PINTEREST_LIMITS.description} characters.`);
        if (body.link !== undefined && (body.link.length > PINTEREST_LIMITS.link || !/^https?:\/\//.test(body.link)))
          return error(400, 1, 'Invalid parameters: link must be an http(s) URL of at most 2048 characters.');
        const media = await pinMedia(state, req.account!, body.media_source);
        if (!Array.isArray(media)) return media;
        const source = body.media_source!;
        const media_type = { image_url: 'image', image_base64: 'image', multiple_image_urls: 'multiple_images', video_id: 'video' }[source.source_type!];
        const { data: _data, ...recorded } = source;
        const post = state.createPost(
          'pinterest',
          req.account!,
          body.description ?? '',
          { board_id: body.board_id, title: body.title ?? '', link: body.link ?? null, media_source: recorded, media: { media_type } },
          String(Date.now()) + String(Math.floor(Math.random() * 1e4)).padStart(4, '0'),
          media,
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
        const all = boardsOf(req.account);
        const size = Math.min(Math.max(Number(req.query.get('page_size') ?? 25), 1), 250);
        const start = Number(req.query.get('bookmark') ?? 0);
        const items = all.slice(start, start + size);
        return { status: 200, body: { items, bookmark: start + size < all.length ? String(start + size) : null } };
      },
    },
    {
      method: 'GET',
      path: '/v5/boards/:board_id',
      handle: (req) => {
        const board = boardsOf(req.account).find((b) => b.id === req.params.board_id);
        return board ? { status: 200, body: board } : error(404, 40, 'Board not found.');
      },
    },
    ...mediaRoutes(),
    {
      method: 'GET',
      path: '/v5/user_account',
      handle: (req) => ({ status: 200, body: { username: req.account, account_type: 'BUSINESS', board_count: 1, pin_count: 0 } }),
    },
  ],
};
