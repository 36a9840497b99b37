import { createHash, randomBytes } from 'node:crypto';
import { inspectMedia } from '../../media/inspect.js';
import { mediaViolation } from '../../media/rules.js';
import type { Route, SandboxRequest } from '../../router.js';
import type { SandboxState } from '../../state.js';
import { BLUESKY_VIDEO, did, invalid, xrpcError } from './rules.js';

/**
 * Bluesky's video service (video.bsky.app; served under the same prefix as the PDS here):
 * com.atproto.server.getServiceAuth (on the PDS) issues a short-lived service token; app.bsky.video.uploadVideo
 * takes the MP4 bytes with it and answers a job; app.bsky.video.getJobStatus moves the job on one step per call
 * (JOB_STATE_CREATED → JOB_STATE_ENCODING → JOB_STATE_COMPLETED with the blob, or JOB_STATE_FAILED with the reason).
 */
interface ServiceToken {
  account: string;
  aud: string;
  lxm: string;
  exp: number;
}
const tokens = new WeakMap<SandboxState, Map<string, ServiceToken>>();
const tokensOf = (state: SandboxState) => tokens.get(state) ?? tokens.set(state, new Map()).get(state)!;

export const cidOf = (data: string | Buffer) => `bafyrei${createHash('sha256').update(data).digest('hex').slice(0, 52)}`;

const jobKey = (jobId: string) => `bsky-job:${jobId}`;

function jobStatus(state: SandboxState, jobId: string) {
  const job = state.media.get(jobKey(jobId))!;
  const base = { jobId, did: did(job.account!), state: job.status! };
  if (job.status === 'JOB_STATE_COMPLETED') return { ...base, progress: 100, blob: job.extra!.blob };
  if (job.status === 'JOB_STATE_FAILED') return { ...base, error: job.extra!.error, message: job.extra!.message };
  return { ...base, progress: job.status === 'JOB_STATE_ENCODING' ? 50 : 0 };
}

const bearer = (req: SandboxRequest) => String(req.headers.authorization ?? '').replace(/^Bearer /, '');

export const videoRoutes: Route[] = [
  {
    method: 'GET',
    path: '/xrpc/com.atproto.server.getServiceAuth',
    handle: (req, state) => {
      const aud = req.query.get('aud') ?? '';
      const lxm = req.query.get('lxm') ?? '';
      if (!aud.startsWith('did:')) return invalid('Params must have the property "aud" (a DID)');
      const exp = Number(req.query.get('exp') ?? Math.floor(Date.now() / 1000) + 60);
      if (exp * 1000 > Date.now() + 60 * 60 * 1000) return xrpcError(400, 'BadExpiration', 'expiration is too far in the future (at most an hour)');
      const token = `svc-${randomBytes(12).toString('hex')}`;
      tokensOf(state).set(token, { account: req.account!, aud, lxm, exp });
      return { status: 200, body: { token } };
    },
  },
  {
    method: 'POST',
    path: '/xrpc/app.bsky.video.uploadVideo',
    auth: false,
    handle: async (req, state) => {
      const token = tokensOf(state).get(bearer(req));
      if (!token || token.exp * 1000 < Date.now()) return xrpcError(401, 'AuthMissing', 'a service token from com.atproto.server.getServiceAuth is required');
      if (!token.aud.startsWith('did:web:') || token.lxm !== 'com.atproto.repo.uploadBlob')
        return xrpcError(401, 'BadJwtAudience', 'the service token must be for the PDS (aud did:web:<pds host>, lxm com.atproto.repo.uploadBlob)');
      if (req.query.get('did') !== did(token.account)) return invalid('did must be the uploading account');
      if (!req.raw.length) return invalid('the request has no video bytes');
      const media = await inspectMedia(req.raw);
      const problem = mediaViolation(media, BLUESKY_VIDEO);
      const jobId = randomBytes(8).toString('hex');
      const cid = cidOf(req.raw);
      state.media.set(jobKey(jobId), {
        platform: 'bluesky',
        bytes: req.raw.length,
        contentType: media.content_type,
        account: token.account,
        facts: media,
        status: 'JOB_STATE_CREATED',
        extra: {
          verdict: problem ?? null,
          blob: { $type: 'blob', ref: { $link: cid }, mimeType: 'video/mp4', size: req.raw.length },
        },
      });
      return { status: 200, body: { jobStatus: jobStatus(state, jobId) } };
    },
  },
  {
    method: 'GET',
    path: '/xrpc/app.bsky.video.getJobStatus',
    auth: false,
    handle: (req, state) => {
      const jobId = req.query.get('jobId') ?? '';
      const job = state.media.get(jobKey(jobId));
      if (!job) return xrpcError(404, 'NotFound', `no job ${jobId}`);
      if (job.status === 'JOB_STATE_CREATED') job.status = 'JOB_STATE_ENCODING';
      else if (job.status === 'JOB_STATE_ENCODING') {
        const verdict = job.extra!.verdict as string | null;
        if (verdict) {
          job.status = 'JOB_STATE_FAILED';
          job.extra = { ...job.extra, error: 'InvalidVideo', message: verdict };
        } else {
          job.status = 'JOB_STATE_COMPLETED';
          // The service stores the processed video on the account's PDS as a blob the record can embed.
          const blob = job.extra!.blob as { ref: { $link: string }; size: number };
          state.media.set(blob.ref.$link, { platform: 'bluesky', bytes: blob.size, contentType: 'video/mp4', account: job.account, facts: job.facts, status: 'video' });
        }
      }
      return { status: 200, body: { jobStatus: jobStatus(state, jobId) } };
    },
  },
];
