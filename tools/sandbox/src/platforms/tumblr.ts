import { readForm } from '../media/receive.js';
import type { SandboxPlatform, SandboxResponse } from '../router.js';
import type { SandboxPost } from '../state.js';
import { contentProblem, NpfProblem, readMedia, TUMBLR_RULES, type Block } from './tumblr/npf.js';

export { TUMBLR_IMAGE, TUMBLR_RULES, TUMBLR_VIDEO } from './tumblr/npf.js';

/**
 * Tumblr API v2 (OAuth 2 bearer): POST /v2/blog/:blog/posts (NPF `{content, state}` as JSON, or as the
 * `json` part of a multipart form whose other parts are the files that media objects name by
 * `identifier`; `text`, `image` and `video` blocks, checked as TUMBLR_RULES says, media read from their
 * bytes and recorded in the post), GET /v2/blog/:blog/posts (`npf`, `limit` 1–20, `id`), POST /v2/blog/:blog/post/delete
 * (`id`), GET /v2/user/info. Answers `{meta:{status, msg}, response}`; errors add `errors:[{title, code, detail}]`.
 * Post ids are beyond 2^53, as on Tumblr: `id` is a lossy number, `id_string` the exact id.
 */
let sequence = 0;
const NOTE_COUNT = 12;

const answer = (status: number, msg: string, response: unknown): SandboxResponse => ({ status, body: { meta: { status, msg }, response } });
const failure = (status: number, msg: string, detail: string, code: number): SandboxResponse => ({
  status,
  body: { meta: { status, msg }, response: [], errors: [{ title: msg, code, detail }] },
});
const notFound = failure(404, 'Not Found', 'Post not found.', 0);

/** `acme`, `acme.tumblr.com` → `acme`. */
const blogName = (identifier: string) => identifier.replace(/\.tumblr\.com$/, '');

function toPost(post: SandboxPost, npf: boolean) {
  const blog = post.details.blog as string;
  return {
    object_type: 'post',
    type: npf ? 'blocks' : 'text',
    id: Number(post.id),
    id_string: post.id,
    blog_name: blog,
    post_url: `https://${blog}.tumblr.com/post/${post.id}`,
    timestamp: Math.floor(post.createdAt.getTime() / 1000),
    date: post.createdAt
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' GMT'),
    state: post.details.state,
    note_count: NOTE_COUNT,
    tags: [],
    ...(npf ? { content: post.details.content, layout: [] } : { body: `<p>${post.text}</p>` }),
  };
}

export const tumblr: SandboxPlatform = {
  name: 'tumblr',
  unauthorized: () => ({ status: 401, body: { meta: { status: 401, msg: 'Unauthorized' }, response: [] } }),
  rules: TUMBLR_RULES,
  routes: [
    {
      method: 'POST',
      path: '/v2/blog/:blog/posts',
      creates: true,
      handle: async (req, state) => {
        const form = await readForm(req);
        let body: { content?: Block[]; state?: string };
        try {
          body = (form ? JSON.parse(String(form.get('json') ?? '')) : (req.body ?? {})) as typeof body;
        } catch {
          return failure(400, 'Bad Request', 'The json part is not valid JSON.', 8001);
        }
        if (!Array.isArray(body.content) || !body.content.length) return failure(400, 'Bad Request', 'Posts cannot be empty.', 8001);
        const problem = contentProblem(body.content);
        if (problem) return failure(400, 'Bad Request', problem, 8001);
        let media;
        try {
          media = await readMedia(body.content, form);
        } catch (err) {
          if (err instanceof NpfProblem) return failure(400, 'Bad Request', err.message, 8001);
          throw err;
        }
        const postState = body.state ?? 'published';
        if (!['published', 'queue', 'draft', 'private'].includes(postState)) return failure(400, 'Bad Request', `Invalid state ${postState}.`, 8001);
        const text = (body.content.find((b) => b.type === 'text')?.text as string | undefined) ?? '';
        const id = `7${Date.now()}${String(sequence++ % 1000).padStart(3, '0')}1`; // 18 digits, odd: never exact as a double
        state.createPost('tumblr', req.account!, text, { blog: blogName(req.params.blog!), content: body.content, state: postState }, id, media);
        return answer(201, 'Created', { id: Number(id), id_string: id, state: postState, display_text: `Posted to ${blogName(req.params.blog!)}` });
      },
    },
    {
      method: 'GET',
      path: '/v2/blog/:blog/posts',
      handle: (req, state) => {
        const blog = blogName(req.params.blog!);
        const npf = req.query.get('npf') === 'true';
        const mine = state.postsOf('tumblr').filter((p) => p.details.blog === blog);
        const id = req.query.get('id');
        if (id) {
          const post = mine.find((p) => p.id === id);
          return post ? answer(200, 'OK', { blog: { name: blog }, posts: [toPost(post, npf)], total_posts: 1 }) : notFound;
        }
        const limit = Math.min(20, Math.max(1, Number(req.query.get('limit') ?? 20)));
        const posts = mine
          .reverse()
          .slice(0, limit)
          .map((p) => toPost(p, npf));
        return answer(200, 'OK', { blog: { name: blog }, posts, total_posts: mine.length });
      },
    },
    {
      method: 'POST',
      path: '/v2/blog/:blog/post/delete',
      handle: (req, state) => {
        const id = String((req.body as { id?: unknown } | undefined)?.id ?? '');
        const post = state.find('tumblr', id);
        if (!id || post?.details.blog !== blogName(req.params.blog!)) return notFound;
        state.remove('tumblr', id);
        return answer(200, 'OK', { id: Number(id), id_string: id });
      },
    },
    {
      method: 'GET',
      path: '/v2/user/info',
      handle: (req) =>
        answer(200, 'OK', {
          user: { name: req.account, likes: 0, following: 0, default_post_format: 'html', blogs: [{ name: req.account, url: `https://${req.account}.tumblr.com/`, primary: true, admin: true }] },
        }),
    },
  ],
};
