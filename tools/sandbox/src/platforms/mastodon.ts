import { inspectMedia, type InspectedMedia } from '../media/inspect.js';
import { formFile, readForm } from '../media/receive.js';
import type { SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxPost, SandboxState } from '../state.js';
import { INSTANCE_CONFIGURATION, MASTODON_RULES, statusLength, uploadProblem } from './mastodon/instance.js';

export { INSTANCE_CONFIGURATION, MASTODON_IMAGE, MASTODON_RULES, MASTODON_VIDEO } from './mastodon/instance.js';

/**
 * A Mastodon instance: GET /api/v2/instance (its `configuration`: every limit below comes from it),
 * POST /api/v2/media (multipart `file`, read from its bytes and refused past the instance's limits; 200 for images,
 * 202 while a video is processed, then GET /api/v1/media/:id answers 206 once and 200, or 422 when processing
 * failed), POST /api/v1/statuses (form or JSON: status,
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

const config = INSTANCE_CONFIGURATION;
/** Mastodon's attachment type of a file: `gifv` for animated GIFs (it makes them videos). */
const typeOf = (m: InspectedMedia | undefined) => (m?.kind === 'video' ? 'video' : m?.kind === 'image' && (m.frames ?? 1) > 1 ? 'gifv' : 'image');
const mastodonMedia = (state: SandboxState, id: string, account: string | undefined) => {
  const upload = state.media.get(id);
  return upload?.platform === 'mastodon' && upload.account === account ? upload : undefined;
};

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
    media_attachments: ((post.details.media_ids as string[] | undefined) ?? []).map((id, i) => ({ id, type: typeOf(post.media[i]) })),
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
  rules: MASTODON_RULES,
  routes: [
    {
      method: 'GET',
      path: '/api/v2/instance',
      auth: false,
      handle: (req) => ({ status: 200, body: { domain: String(req.headers.host), title: 'Sandbox', version: '4.3.0', configuration: config } }),
    },
    {
      method: 'POST',
      path: '/api/v2/media',
      handle: async (req, state) => {
        const form = await readForm(req);
        const bytes = await formFile(form, 'file');
        if (!bytes) return validation("File can't be blank");
        const facts = await inspectMedia(bytes);
        const problem = uploadProblem(facts);
        if (problem) return failure(422, problem);
        const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
        const type = typeOf(facts);
        // Videos and GIFs are transcoded after the answer; a video ffprobe cannot read fails there.
        const failed = facts.kind === 'video' && (facts.duration_s === undefined || !facts.video_codec);
        const status = type === 'image' ? 'ready' : failed ? 'failing' : 'processing';
        state.media.set(id, { platform: 'mastodon', bytes: bytes.length, contentType: facts.content_type, account: req.account, facts, status });
        const url = `http://${req.headers.host}/mastodon/media/${id}`;
        const description = form?.get('description') ?? null;
        if (type !== 'image') return { status: 202, body: { id, type, url: null, preview_url: null, description } };
        return { status: 200, body: { id, type, url, preview_url: url, description } };
      },
    },
    {
      method: 'GET',
      path: '/api/v1/media/:id',
      handle: (req, state) => {
        const media = mastodonMedia(state, req.params.id!, req.account);
        if (!media) return failure(404, 'Record not found');
        const type = typeOf(media.facts);
        if (media.status === 'processing' || media.status === 'failing') {
          media.status = media.status === 'processing' ? 'ready' : 'failed';
          return { status: 206, body: { id: req.params.id, type, url: null } };
        }
        if (media.status === 'failed') return failure(422, 'Error processing thumbnail for uploaded media');
        return { status: 200, body: { id: req.params.id, type, url: `http://${req.headers.host}/mastodon/media/${req.params.id}` } };
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
        const { max_characters, max_media_attachments } = config.statuses;
        if (statusLength(p.status) > max_characters) return validation(`Text character limit of ${max_characters} exceeded`);
        if (p.mediaIds.length > max_media_attachments) return failure(422, `Cannot attach more than ${max_media_attachments} files`);
        const media: InspectedMedia[] = [];
        for (const id of p.mediaIds) {
          const upload = mastodonMedia(state, id, req.account);
          if (!upload) return validation(`unknown media id ${id}`);
          if (upload.status !== 'ready') return failure(422, 'Cannot attach files that have not finished processing. Try again in a moment!');
          media.push(upload.facts!);
        }
        if (media.length > 1 && media.some((m) => typeOf(m) !== 'image')) return failure(422, 'Cannot attach a video to a post that already contains images');
        if (p.options.length) {
          const { max_options, max_characters_per_option, min_expiration, max_expiration } = config.polls;
          if (p.mediaIds.length) return validation('Cannot attach both media and a poll');
          if (p.options.length < 2 || p.options.length > max_options) return validation(`Poll must have between 2 and ${max_options} options`);
          if (p.options.some((o) => statusLength(o) > max_characters_per_option)) return validation(`Poll options cannot be longer than ${max_characters_per_option} characters`);
          if (!p.expiresIn || p.expiresIn < min_expiration || p.expiresIn > max_expiration) return validation('Poll duration is outside the instance bounds');
        }
        if (p.inReplyTo && !state.find('mastodon', p.inReplyTo)) return failure(404, 'Record not found');
        const poll = p.options.length ? { options: p.options, expires_in: p.expiresIn } : undefined;
        const post = state.createPost(
          'mastodon',
          req.account!,
          p.status,
          { media_ids: p.mediaIds, in_reply_to_id: p.inReplyTo ?? null, poll, idempotencyKey: key },
          String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0'),
          media,
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
