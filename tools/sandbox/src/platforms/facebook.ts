import type { SandboxPlatform } from '../router.js';
import type { SandboxState } from '../state.js';
import { graphError, graphId, graphTime, graphUnauthorized, insightsAnswer, notFound, requested, withToken } from './meta-graph.js';

/**
 * Facebook Pages Graph API: POST /:page/feed (message, attached_media), POST /:page/photos (url,
 * published=false), POST /:page/videos (file_url, description), GET /:page/posts (recent posts, `since`),
 * GET /:id (post fields: permalink_url, reactions/comments summaries, shares; the page), POST
 * /:id/comments, GET /:id/insights, DELETE /:id. Comments are kept in the post's `details.comments`.
 */
const photos = new WeakMap<SandboxState, Map<string, { page: string; url: string }>>();
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
        const photoUrls = media.map((id) => photosOf(state).get(id)!.url);
        const post = state.createPost('facebook', req.account!, params.message ?? '', { page: req.params.page, photos: photoUrls, comments: [] }, `${req.params.page}_${graphId()}`);
        return { status: 200, body: { id: post.id } };
      }),
    },
    {
      method: 'POST',
      path: '/:page/photos',
      handle: withToken((req, state, params) => {
        if (!params.url) return graphError(400, '(#324) Requires upload file', 324);
        if (params.published !== 'false') return graphError(400, 'sandbox: only unpublished photos (published=false) are modelled', 100);
        const id = graphId();
        photosOf(state).set(id, { page: req.params.page!, url: params.url });
        return { status: 200, body: { id } };
      }),
    },
    {
      method: 'POST',
      path: '/:page/videos',
      creates: true,
      handle: withToken((req, state, params) => {
        if (!params.file_url) return graphError(400, '(#100) file_url or source is required', 100);
        const post = state.createPost('facebook', req.account!, params.description ?? '', { page: req.params.page, video: params.file_url, comments: [] }, graphId());
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
        if (!post) return /^\d+$/.test(id) && fields.has('name') ? { status: 200, body: { id, name: `${req.account} page` } } : notFound(id);
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
