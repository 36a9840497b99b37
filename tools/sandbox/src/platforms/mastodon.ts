import type { SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxPost } from '../state.js';
import { graphemeLength } from './text.js';

/**
 * A Mastodon instance: POST /api/v2/media (multipart `file`; 200 for images, 202 while a video is processed,
 * then GET /api/v1/media/:id answers 206 once and 200), POST /api/v1/statuses (form or JSON: status,
 * media_ids[], poll[options][], poll[expires_in], in_reply_to_id; honours `Idempotency-Key`),
 * GET/DELETE /api/v1/statuses/:id, GET /api/v1/accounts/verify_credentials, GET /api/v1/accounts/:id/statuses.
 * Validation errors are 422 `{error: 'Validation failed: …'}`, as Mastodon answers them.
 */
const failure = (status: number, error: string): SandboxResponse => ({ status, body: { error } });
const validation = (message: string) => failure(422, `Validation failed: ${message}`);

/** Account ids are numeric strings on Mastodon; the sandbox derives them from the account name. */
const accountId = (account: string) => BigInt(`0x${Buffer.from(account).toString('hex')}`).toString();
const accountName = (id: string) => Buffer.from(BigInt(id).toString(16), 'hex').toString();

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
/** Mastodon's rendering of a plain-text status: paragraphs, line breaks, linkified URLs. */
function render(text: string): string {
  const line = (l: string) =>
    l
      .split(/(https?:\/\/\S+)/)
      .map((piece, i) => {
        if (i % 2 === 0) return escape(piece);
        const [, scheme, rest] = /^(https?:\/\/)(.*)$/.exec(piece)!;
        return `<a href="${escape(piece)}" target="_blank" rel="nofollow noopener"><span class="invisible">${scheme}</span><span class="">${escape(rest!)}</span><span class="invisible"></span></a>`;
      })
      .join('');
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${p.split('\n').map(line).join('<br />')}</p>`)
    .join('');
}

const processing = new Map<string, number>();

function status(req: SandboxRequest, post: SandboxPost) {
  return {
    id: post.id,
    created_at: post.createdAt.toISOString(),
    in_reply_to_id: post.details.in_reply_to_id ?? null,
    visibility: 'public',
    uri: `http://${req.headers.host}/mastodon/users/${post.account}/statuses/${post.id}`,
    url: `http://${req.headers.host}/mastodon/@${post.account}/${post.id}`,
    content: render(post.text),
    replies_count: 4,
    reblogs_count: 3,
    favourites_count: 11,
    media_attachments: ((post.details.media_ids as string[] | undefined) ?? []).map((id) => ({ id, type: 'image' })),
    poll: post.details.poll ?? null,
    account: { id: accountId(post.account), username: post.account, acct: post.account },
  };
}

/** The status parameters from a form body (`media_ids[]`, `poll[options][]`…) or a JSON body. */
function statusParams(req: SandboxRequest) {
  if (String(req.headers['content-type']).includes('application/json')) {
    const b = (req.body ?? {}) as { status?: string; media_ids?: string[]; in_reply_to_id?: string; poll?: { options?: string[]; expires_in?: number } };
    return { status: b.status ?? '', mediaIds: b.media_ids ?? [], inReplyTo: b.in_reply_to_id, options: b.poll?.options ?? [], expiresIn: b.poll?.expires_in };
  }
  const form = new URLSearchParams(req.raw.toString('utf8'));
  const expires = form.get('poll[expires_in]');
  return {
    status: form.get('status') ?? '',
    mediaIds: form.getAll('media_ids[]'),
    inReplyTo: form.get('in_reply_to_id') ?? undefined,
    options: form.getAll('poll[options][]'),
    expiresIn: expires === null ? undefined : Number(expires),
  };
}

export const mastodon: SandboxPlatform = {
  name: 'mastodon',
  unauthorized: () => failure(401, 'The access token is invalid'),
  routes: [
    {
      method: 'POST',
      path: '/api/v2/media',
      handle: async (req, state) => {
        const form = await new Request('http://sandbox/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: new Uint8Array(req.raw) })
          .formData()
          .catch(() => undefined);
        const file = form?.get('file');
        if (!file || typeof file === 'string') return validation("File can't be blank");
        const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
        state.media.set(id, { platform: 'mastodon', bytes: file.size, contentType: file.type });
        const type = file.type.startsWith('video/') ? 'video' : 'image';
        const url = `http://${req.headers.host}/mastodon/media/${id}`;
        if (type === 'video') {
          processing.set(id, 1);
          return { status: 202, body: { id, type, url: null, preview_url: null, description: form?.get('description') ?? null } };
        }
        return { status: 200, body: { id, type, url, preview_url: url, description: form?.get('description') ?? null } };
      },
    },
    {
      method: 'GET',
      path: '/api/v1/media/:id',
      handle: (req, state) => {
        const media = state.media.get(req.params.id!);
        if (!media || media.platform !== 'mastodon') return failure(404, 'Record not found');
        const left = processing.get(req.params.id!) ?? 0;
        if (left > 0) {
          processing.set(req.params.id!, left - 1);
          return { status: 206, body: { id: req.params.id, type: 'video', url: null } };
        }
        processing.delete(req.params.id!);
        return { status: 200, body: { id: req.params.id, type: media.contentType.startsWith('video/') ? 'video' : 'image', url: `http://${req.headers.host}/mastodon/media/${req.params.id}` } };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/statuses',
      creates: true,
      handle: (req, state) => {
        const p = statusParams(req);
        const key = req.headers['idempotency-key'];
        const replay = typeof key === 'string' ? state.postByIdempotencyKey('mastodon', req.account, key) : undefined;
        if (replay) return { status: 200, body: status(req, replay) };
        if (!p.status && p.mediaIds.length === 0) return validation("Text can't be blank");
        if (graphemeLength(p.status) > 500) return validation('Text character limit of 500 exceeded');
        if (p.mediaIds.length > 4) return validation('Media attachments limit of 4 exceeded');
        for (const id of p.mediaIds) {
          if (state.media.get(id)?.platform !== 'mastodon') return validation(`unknown media id ${id}`);
          if (processing.has(id)) return failure(422, 'Cannot attach files that have not finished processing. Try again in a moment!');
        }
        if (p.options.length) {
          if (p.mediaIds.length) return validation('Cannot attach both media and a poll');
          if (p.options.length < 2 || p.options.length > 4 || !p.expiresIn) return validation('Poll must have 2 to 4 options and an expiry');
        }
        if (p.inReplyTo && !state.find('mastodon', p.inReplyTo)) return failure(404, 'Record not found');
        const poll = p.options.length ? { options: p.options, expires_in: p.expiresIn } : undefined;
        const post = state.createPost(
          'mastodon',
          req.account!,
          p.status,
          { media_ids: p.mediaIds, in_reply_to_id: p.inReplyTo ?? null, poll, idempotencyKey: key },
          String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0'),
        );
        return { status: 200, body: status(req, post) };
      },
    },
    {
      method: 'GET',
      path: '/api/v1/statuses/:id',
      metrics: true,
      handle: (req, state) => {
        const post = state.find('mastodon', req.params.id!);
        if (!post) return failure(404, 'Record not found');
        return { status: 200, body: { ...status(req, post), replies_count: state.grow(post, 4), reblogs_count: state.grow(post, 3), favourites_count: state.grow(post, 11) } };
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/statuses/:id',
      handle: (req, state) => {
        const post = state.find('mastodon', req.params.id!);
        if (!post || post.account !== req.account) return failure(404, 'Record not found');
        state.remove('mastodon', post.id);
        return { status: 200, body: { ...status(req, post), text: post.text } };
      },
    },
    {
      method: 'GET',
      path: '/api/v1/accounts/verify_credentials',
      handle: (req) => ({ status: 200, body: { id: accountId(req.account!), username: req.account, acct: req.account, display_name: req.account } }),
    },
    {
      method: 'GET',
      path: '/api/v1/accounts/:id/statuses',
      handle: (req, state) => {
        const limit = Math.min(Number(req.query.get('limit') ?? 20), 40);
        const noReplies = req.query.get('exclude_replies') === 'true';
        const mine = state.postsOf('mastodon', accountName(req.params.id!)).filter((p) => !(noReplies && p.details.in_reply_to_id));
        const statuses = state.page(mine, limit, req.query.get('max_id')).items.map((p) => status(req, p));
        return { status: 200, body: statuses };
      },
    },
  ],
};
