import type { SandboxPlatform } from '../router.js';

/**
 * X API v2: POST /2/tweets (text, reply.in_reply_to_tweet_id, media.media_ids, poll), DELETE /2/tweets/:id,
 * GET /2/tweets/:id (public_metrics), GET /2/users/me, GET /2/users/:id/tweets (start_time),
 * POST /2/media/upload (JSON: media base64, media_category).
 */
export const twitter: SandboxPlatform = {
  name: 'twitter',
  unauthorized: () => ({ status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } }),
  routes: [
    {
      method: 'POST',
      path: '/2/tweets',
      creates: true,
      handle: (req, state) => {
        const body = req.body as { text?: string; reply?: { in_reply_to_tweet_id?: string }; media?: { media_ids?: string[] }; poll?: { options?: string[]; duration_minutes?: number } };
        if (typeof body?.text !== 'string' || !body.text) return { status: 400, body: { errors: [{ message: 'text is required' }], title: 'Invalid Request' } };
        if (body.poll && body.media) return { status: 400, body: { errors: [{ message: 'poll and media cannot be combined' }], title: 'Invalid Request' } };
        if (body.reply?.in_reply_to_tweet_id && !state.find('twitter', body.reply.in_reply_to_tweet_id)) {
          return { status: 400, body: { errors: [{ message: 'reply target not found' }], title: 'Invalid Request' } };
        }
        for (const id of body.media?.media_ids ?? []) if (!state.media.has(id)) return { status: 400, body: { errors: [{ message: `unknown media id ${id}` }] } };
        const post = state.createPost(
          'twitter',
          req.account!,
          body.text,
          { reply: body.reply, media: body.media, poll: body.poll },
          String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0'),
        );
        return { status: 201, body: { data: { id: post.id, text: post.text, edit_history_tweet_ids: [post.id] } } };
      },
    },
    {
      method: 'DELETE',
      path: '/2/tweets/:id',
      handle: (req, state) => ({ status: 200, body: { data: { deleted: state.remove('twitter', req.params.id!) } } }),
    },
    {
      method: 'GET',
      path: '/2/tweets/:id',
      metrics: true,
      handle: (req, state) => {
        const post = state.find('twitter', req.params.id!);
        if (!post) return { status: 404, body: { errors: [{ message: 'Not Found' }] } };
        return {
          status: 200,
          body: {
            data: {
              id: post.id,
              text: post.text,
              public_metrics: {
                impression_count: state.grow(post, 100),
                like_count: state.grow(post, 7),
                reply_count: state.grow(post, 2),
                retweet_count: state.grow(post, 3),
                quote_count: state.grow(post, 1),
                bookmark_count: 0,
              },
              non_public_metrics: { url_link_clicks: state.grow(post, 4) },
            },
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/2/users/me',
      handle: (req) => ({ status: 200, body: { data: { id: `u-${req.account}`, name: req.account, username: req.account } } }),
    },
    {
      method: 'GET',
      path: '/2/users/:id/tweets',
      handle: (req, state) => {
        const since = Date.parse(req.query.get('start_time') ?? '1970-01-01T00:00:00Z');
        const account = req.params.id!.replace(/^u-/, '');
        const limit = Math.min(Number(req.query.get('max_results') ?? 10), 100);
        const recent = state.postsOf('twitter', account).filter((p) => p.createdAt.getTime() >= since);
        const { items, next } = state.page(recent, limit, req.query.get('pagination_token'));
        const data = items.map((p) => ({ id: p.id, text: p.text, created_at: p.createdAt.toISOString() }));
        const meta = { result_count: data.length, ...(next ? { next_token: next } : {}) };
        return { status: 200, body: data.length ? { data, meta } : { meta } };
      },
    },
    {
      method: 'POST',
      path: '/2/media/upload',
      handle: (req, state) => {
        const body = req.body as { media?: string; media_category?: string };
        if (!body?.media || !body.media_category) return { status: 400, body: { errors: [{ message: 'media and media_category are required' }] } };
        const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
        state.media.set(id, { platform: 'twitter', bytes: Buffer.from(body.media, 'base64').length, contentType: body.media_category });
        return { status: 200, body: { data: { id, media_key: `3_${id}`, size: Buffer.from(body.media, 'base64').length, expires_after_secs: 86400 } } };
      },
    },
  ],
};
