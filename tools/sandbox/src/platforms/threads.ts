import type { InspectedMedia } from '../media/inspect.js';
import type { SandboxPlatform } from '../router.js';
import {
  carouselChildren,
  containersOf,
  containerStatus,
  createContainer,
  graphError,
  graphId,
  graphTime,
  graphUnauthorized,
  insightsAnswer,
  notFound,
  publishContainer,
  requested,
  withToken,
} from './meta-graph.js';
import { withTokenAsync } from './meta-graph-async.js';
import { mediaContainer, mediaInfo, THREADS_LIMITS, THREADS_RULES } from './threads/media.js';
import { linksOf, threadsLength } from './threads/text.js';

export { THREADS_IMAGE, THREADS_RULES, THREADS_VIDEO } from './threads/media.js';

/**
 * Threads API: POST /:user/threads (containers: TEXT with optional poll_attachment, IMAGE image_url,
 * VIDEO video_url, CAROUSEL children; reply_to_id), GET /:id (container `status`, post fields, the user),
 * POST /:user/threads_publish, GET /:user/threads (recent posts, `since`), GET /:id/insights,
 * DELETE /:id. Media are pulled from their URLs and read from their bytes (threads/media.ts): an image Threads
 * refuses is refused at once, a video container reads IN_PROGRESS once, then FINISHED or ERROR with its
 * `error_message`. A published post records the media it carried, in order.
 */
const code = (id: string) => `C${Buffer.from(id).toString('base64url').slice(0, 10)}`;
const permalink = (account: string, id: string) => `https://www.threads.net/@${account}/post/${code(id)}`;

function invalid(params: Record<string, string>): string | undefined {
  const type = params.media_type;
  if (threadsLength(params.text ?? '') > THREADS_LIMITS.text) return `Param text must be at most ${THREADS_LIMITS.text} characters long (emojis count their UTF-8 bytes).`;
  if (linksOf(params.text ?? '').size > THREADS_LIMITS.links) return `THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most ${THREADS_LIMITS.links} links.`;
  if (type === 'TEXT') {
    if (!params.text) return 'Param text is required for TEXT posts.';
    if (params.poll_attachment) {
      let poll: Record<string, unknown>;
      try {
        poll = JSON.parse(params.poll_attachment) as Record<string, unknown>;
      } catch {
        return 'Param poll_attachment must be JSON.';
      }
      const options = ['option_a', 'option_b', 'option_c', 'option_d'].map((k) => poll[k]).filter((o) => o !== undefined);
      if (!poll.option_a || !poll.option_b || options.some((o) => typeof o !== 'string' || o.length < 1 || o.length > 25)) return 'A poll needs option_a and option_b of 1 to 25 characters.';
    }
    return undefined;
  }
  if (params.poll_attachment) return 'Polls go on TEXT posts only.';
  if (type === 'IMAGE') return params.image_url ? undefined : 'Param image_url is required for IMAGE posts.';
  if (type === 'VIDEO') return params.video_url ? undefined : 'Param video_url is required for VIDEO posts.';
  if (type === 'CAROUSEL') return undefined;
  return 'Param media_type must be one of TEXT, IMAGE, VIDEO, CAROUSEL.';
}

export const threads: SandboxPlatform = {
  name: 'threads',
  unauthorized: graphUnauthorized,
  rules: THREADS_RULES,
  routes: [
    {
      method: 'POST',
      path: '/:user/threads',
      handle: withTokenAsync(async (req, state, params) => {
        const problem = invalid(params);
        if (problem) return graphError(400, problem, 100);
        if (params.media_type === 'CAROUSEL') {
          const children = carouselChildren(state, req, params.children, THREADS_LIMITS.carouselMax);
          if (typeof children === 'string') return graphError(400, children, 100);
          if (children.some((c) => c.slow && c.reads < 2)) return graphError(400, '(#100) children must be FINISHED containers', 100);
        }
        if (params.reply_to_id && !state.find('threads', params.reply_to_id)) return graphError(400, 'The reply_to_id post does not exist.', 100);
        if (params.media_type === 'IMAGE' || params.media_type === 'VIDEO') return mediaContainer(state, req, params);
        return { status: 200, body: { id: createContainer(state, req, params).id } };
      }),
    },
    {
      method: 'POST',
      path: '/:user/threads_publish',
      creates: true,
      handle: withToken((req, state, params) =>
        publishContainer(state, req, params, (c) => {
          const { text, reply_to_id, ...rest } = c.params;
          const childContainers = (c.params.children?.split(',') ?? []).map((id) => containersOf(state).get(id)!);
          const media = (childContainers.length ? childContainers : [c]).map((x) => mediaInfo(x).media).filter((m): m is InspectedMedia => m !== undefined);
          const children = childContainers.map((x) => x.params);
          return state.createPost('threads', c.account, text ?? '', { owner: c.owner, reply_to_id, container: rest, children: c.params.children ? children : undefined }, graphId(), media);
        }),
      ),
    },
    {
      method: 'GET',
      path: '/:user/threads',
      handle: withToken((req, state, params) => {
        const since = Number(params.since ?? 0) * 1000;
        const data = state
          .postsOf('threads', req.account)
          .filter((p) => p.details.owner === req.params.user && !p.details.reply_to_id && p.createdAt.getTime() >= since)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .slice(0, Number(params.limit ?? 25))
          .map((p) => ({ id: p.id, text: p.text, timestamp: graphTime(p.createdAt), permalink: permalink(p.account, p.id), media_type: 'TEXT_POST' }));
        return { status: 200, body: { data, paging: { cursors: { before: 'b', after: 'a' } } } };
      }),
    },
    {
      method: 'GET',
      path: '/:id',
      handle: withToken((req, state, params) => {
        const id = req.params.id!;
        const container = containersOf(state).get(id);
        if (container) return { status: 200, body: { id, status: containerStatus(container), ...(container.failed ? { error_message: mediaInfo(container).error ?? 'UNKNOWN' } : {}) } };
        const post = state.find('threads', id);
        if (post) return { status: 200, body: { id, text: post.text, timestamp: graphTime(post.createdAt), permalink: permalink(post.account, id) } };
        if ((/^\d+$/.test(id) || id === `th-${req.account}`) && requested(params).has('username')) return { status: 200, body: { id, username: req.account } };
        return notFound(id);
      }),
    },
    {
      method: 'GET',
      path: '/:id/insights',
      metrics: true,
      handle: withToken((req, state, params) => {
        const post = state.find('threads', req.params.id!);
        if (!post) return notFound(req.params.id!);
        const replies = state.postsOf('threads').filter((p) => p.details.reply_to_id === post.id).length;
        return insightsAnswer(
          post.id,
          { views: state.grow(post, 480), likes: state.grow(post, 33), replies, reposts: state.grow(post, 5), quotes: state.grow(post, 2), shares: state.grow(post, 1) },
          params,
        );
      }),
    },
    {
      method: 'DELETE',
      path: '/:id',
      handle: withToken((req, state) => (state.remove('threads', req.params.id!) ? { status: 200, body: { success: true, deleted_id: req.params.id } } : notFound(req.params.id!))),
    },
  ],
};
