import { inspectMedia, type InspectedMedia } from '../../media/inspect.js';
import { formFile, readForm } from '../../media/receive.js';
import type { SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules, Route, SandboxRequest, SandboxResponse } from '../../router.js';
import type { SandboxState, SandboxUpload } from '../../state.js';

const GET_UPLOAD_URL = 'https://docs.slack.dev/reference/methods/files.getUploadURLExternal/';
const COMPLETE_UPLOAD = 'https://docs.slack.dev/reference/methods/files.completeUploadExternal/';
const POST_MESSAGE = 'https://docs.slack.dev/reference/methods/chat.postMessage/';
const FILE_LIMIT = 'https://slack.com/help/articles/201330736-Add-files-to-Slack';

/**
 * Slack takes files of any type up to 1 GB (the limit is the only media rule it enforces); images and
 * videos of these types are shown inline, which is what the publisher sends.
 */
export const SLACK_IMAGE: SandboxMediaRule = { types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'], max_bytes: 1024 ** 3, source: FILE_LIMIT };
export const SLACK_VIDEO: SandboxMediaRule = { types: ['video/mp4', 'video/quicktime', 'video/webm'], max_bytes: 1024 ** 3, source: FILE_LIMIT };

/** How long an upload URL takes bytes. Slack documents that it expires (the upload is aborted) but not after how long: the stand-in uses 10 minutes. */
export const SLACK_UPLOAD_URL_LIFETIME_MS = 10 * 60_000;
/** chat.postMessage and initial_comment text: longer than this is refused with msg_too_long. */
export const SLACK_TEXT_LIMIT = 40_000;

export const SLACK_RULES: PlatformRules = {
  media: { image: SLACK_IMAGE, video: SLACK_VIDEO },
  other: [
    { rule: 'files.getUploadURLExternal needs `filename` and `length` > 0 (missing_argument / invalid_arguments); over 1 GB → file_upload_size_restricted', source: GET_UPLOAD_URL },
    { rule: 'the bytes are POSTed (raw or multipart) to upload_url; a length other than the declared one, an unknown or expired URL, or a second upload answer non-200', source: GET_UPLOAD_URL },
    {
      rule: 'files.completeUploadExternal needs `files` [{id, title}] of uploaded files (file_not_found before the upload), shares them in channel_id with initial_comment, as a reply when thread_ts is given',
      source: COMPLETE_UPLOAD,
    },
    { rule: 'a channel the bot is not a member of → not_in_channel; an unknown one → channel_not_found', source: COMPLETE_UPLOAD },
    { rule: 'message text (text, initial_comment) over 40,000 characters → msg_too_long; a section block over 3000 → invalid_blocks', source: POST_MESSAGE },
  ],
};

export const slackFail = (error: string): SandboxResponse => ({ status: 200, body: { ok: false, error } });
export const slackOk = (body: Record<string, unknown>): SandboxResponse => ({ status: 200, body: { ok: true, ...body } });
export const slackParams = (req: SandboxRequest): Record<string, unknown> => (req.method === 'GET' ? Object.fromEntries(req.query) : ((req.body ?? {}) as Record<string, unknown>));

/**
 * Channels as the stand-in's workspace has them (see conversations.list): `C-random-<account>` exists but
 * the bot is not in it; `C-missing…` does not exist; every other id is a channel the bot is in.
 */
export function channelError(account: string, channel: unknown): string | undefined {
  if (typeof channel !== 'string' || !channel || channel.startsWith('C-missing')) return 'channel_not_found';
  if (channel === `C-random-${account}`) return 'not_in_channel';
  return undefined;
}

/** A workspace whose admins turned file uploads off: the account named `nofiles`. */
const UPLOADS_DISABLED = 'nofiles';

let fileSequence = 0;
const uploadOf = (state: SandboxState, id: string): SandboxUpload | undefined => {
  const upload = state.media.get(`slack:${id}`);
  return upload?.platform === 'slack' ? upload : undefined;
};

function fileObject(id: string, upload: SandboxUpload, share?: { channel: string; ts: string; thread_ts?: string | undefined }) {
  const extra = upload.extra as { filename: string; title?: string };
  const facts = upload.facts;
  return {
    id,
    name: extra.filename,
    title: extra.title ?? extra.filename,
    mimetype: facts?.content_type ?? 'application/octet-stream',
    size: upload.bytes,
    ...(facts && 'width' in facts && facts.width ? { original_w: facts.width, original_h: facts.height } : {}),
    shares: share ? { [share.channel.startsWith('C') ? 'public' : 'private']: { [share.channel]: [{ ts: share.ts, ...(share.thread_ts ? { thread_ts: share.thread_ts } : {}) }] } } : {},
  };
}

function filesArgument(raw: unknown): Array<{ id: string; title?: string }> | undefined {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(value) || !value.length || value.some((f) => typeof (f as { id?: unknown })?.id !== 'string')) return undefined;
  return value as Array<{ id: string; title?: string }>;
}

/**
 * Slack's external file upload: files.getUploadURLExternal → POST the bytes to upload_url →
 * files.completeUploadExternal, which shares the files in a channel as one message (initial_comment as
 * its text, thread_ts to reply). The stored post's id is the message ts; its media are the files as
 * read from their bytes. files.info answers a file with its shares.
 */
export function slackFileRoutes(nextTs: () => string): Route[] {
  return [
    {
      method: 'POST',
      path: '/files.getUploadURLExternal',
      handle: (req, state) => {
        const { filename, length } = slackParams(req);
        if (req.account === UPLOADS_DISABLED) return slackFail('file_uploads_disabled');
        const bytes = Number(length);
        if (typeof filename !== 'string' || !filename || length === undefined || length === '' || !bytes) return slackFail('missing_argument');
        if (!Number.isInteger(bytes) || bytes < 0) return slackFail('invalid_arguments');
        if (bytes > SLACK_IMAGE.max_bytes) return slackFail('file_upload_size_restricted');
        const file_id = `F${String(++fileSequence).padStart(9, '0')}`;
        state.media.set(`slack:${file_id}`, { platform: 'slack', bytes, contentType: 'application/octet-stream', account: req.account, status: 'pending', extra: { filename, createdAt: Date.now() } });
        return slackOk({ upload_url: `http://${req.headers.host}/slack/upload/v1/${file_id}`, file_id });
      },
    },
    {
      method: 'POST',
      path: '/upload/v1/:id',
      auth: false,
      handle: async (req, state) => {
        const upload = uploadOf(state, req.params.id!);
        if (!upload) return { status: 404, body: 'upload not found' };
        const extra = upload.extra as { createdAt: number };
        if (Date.now() - extra.createdAt > SLACK_UPLOAD_URL_LIFETIME_MS) return { status: 410, body: 'upload URL expired' };
        if (upload.status !== 'pending') return { status: 409, body: 'already uploaded' };
        const form = await readForm(req);
        const bytes = form ? ((await formFile(form, 'filename')) ?? (await formFile(form, 'file'))) : req.raw;
        if (!bytes?.length) return { status: 400, body: 'no file in the request' };
        if (bytes.length !== upload.bytes) return { status: 400, body: `length mismatch: ${bytes.length} bytes received, ${upload.bytes} declared` };
        upload.facts = await inspectMedia(bytes);
        upload.status = 'uploaded';
        return { status: 200, body: `OK - ${bytes.length}`, headers: { 'content-type': 'text/plain' } };
      },
    },
    {
      method: 'POST',
      path: '/files.completeUploadExternal',
      creates: true,
      handle: (req, state) => {
        const { files, channel_id, initial_comment, thread_ts } = slackParams(req);
        const list = filesArgument(files);
        if (!list) return slackFail('invalid_arguments');
        const uploads: Array<[string, SandboxUpload]> = [];
        for (const f of list) {
          const upload = uploadOf(state, f.id);
          if (!upload || upload.account !== req.account || upload.status === 'pending') return slackFail('file_not_found');
          if (upload.status === 'completed') return slackFail('file_already_shared');
          uploads.push([f.id, upload]);
        }
        const channelProblem = channelError(req.account!, channel_id);
        if (channelProblem) return slackFail(channelProblem);
        if (typeof initial_comment === 'string' && initial_comment.length > SLACK_TEXT_LIMIT) return slackFail('msg_too_long');
        const media = uploads.map(([, u]) => u.facts as InspectedMedia);
        const fileRefs = list.map((f) => ({ id: f.id, title: f.title }));
        const post = state.createPost('slack', req.account!, typeof initial_comment === 'string' ? initial_comment : '', { channel: channel_id, thread_ts, files: fileRefs }, nextTs(), media);
        const share = { channel: String(channel_id), ts: post.id, thread_ts: typeof thread_ts === 'string' ? thread_ts : undefined };
        for (const [id, upload] of uploads) {
          upload.status = 'completed';
          (upload.extra as Record<string, unknown>).title = list.find((f) => f.id === id)?.title;
          (upload.extra as Record<string, unknown>).share = share;
        }
        return slackOk({ files: uploads.map(([id, u]) => fileObject(id, u, share)) });
      },
    },
    {
      method: 'GET',
      path: '/files.info',
      handle: (req, state) => {
        const id = String(slackParams(req).file ?? '');
        const upload = uploadOf(state, id);
        if (!upload || upload.account !== req.account || upload.status === 'pending') return slackFail('file_not_found');
        const extra = upload.extra as { share?: { channel: string; ts: string; thread_ts?: string } };
        return slackOk({ file: fileObject(id, upload, extra.share) });
      },
    },
  ];
}
