import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verifySignature } from '@spa/webhook-signature';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** The JSON body of a delivery of the contract's events (post.published, post.failed, post.partial_failure, webhook.test). */
export type WebhookEvent = Schemas['WebhookEvent'];

/**
 * The JSON body of a delivery of each event kind a webhook can choose (version 1 of each; fields may be added to
 * `data` without a new version).
 */
export interface WebhookPayloads {
  'post.published': WebhookEvent;
  'post.failed': WebhookEvent;
  'post.partial_failure': WebhookEvent;
  'webhook.test': WebhookEvent;
  'post.created': Schemas['PostCreatedEvent'];
  'post.updated': Schemas['PostUpdatedEvent'];
  'post.scheduled': Schemas['PostScheduledEvent'];
  'post.deleted': Schemas['PostDeletedEvent'];
  'post.approved': Schemas['PostApprovedEvent'];
  'post.rejected': Schemas['PostRejectedEvent'];
  'account.connected': Schemas['AccountConnectedEvent'];
  'account.disconnected': Schemas['AccountDisconnectedEvent'];
  'account.reauth_required': Schemas['AccountReauthRequiredEvent'];
  'account.expiring': Schemas['AccountExpiringEvent'];
  'image_week_run.completed': Schemas['ImageWeekRunCompletedEvent'];
  'image_week_run.failed': Schemas['ImageWeekRunFailedEvent'];
  'site_push.consumed': Schemas['SitePushConsumedEvent'];
}
export type WebhookEventKind = keyof WebhookPayloads;
/** A delivery of `K` (default: any kind, told apart by `event`). */
export type WebhookPayload<K extends WebhookEventKind = WebhookEventKind> = WebhookPayloads[K];
/** One event of the event log (GET /events): its `id` is the `event_id` of its deliveries. */
export type LoggedEvent = Schemas['LoggedEvent'];

export { SIGNATURE_HEADER };

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** Largest accepted distance between the signature's timestamp and your clock, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Your clock in unix seconds (default: now). */
  nowSeconds?: number;
}

/**
 * Verifies a webhook delivery and returns its event: the HMAC-SHA256 of `<t>.<raw body>` is compared in
 * constant time with every `v1` of the X-Service-Signature header (several during a rotation of the
 * webhook's secret), and a timestamp outside the tolerance is refused. Pass the raw bytes as received,
 * before any JSON parsing. `secrets` may list several secrets of yours (your own rotation): any may match.
 * Throws WebhookVerificationError when the delivery is not authentic.
 */
export function verifyWebhook(rawBody: string | Uint8Array, signatureHeader: string | string[] | undefined, secrets: string | readonly string[], options: VerifyWebhookOptions = {}): WebhookEvent {
  return verifyWebhookPayload(rawBody, signatureHeader, secrets, options) as WebhookEvent;
}

/**
 * As verifyWebhook, for a webhook that chose lifecycle kinds: the payload of any kind, told apart by `event`
 * (narrow it with `payload.event === 'post.created'`).
 */
export function verifyWebhookPayload(
  rawBody: string | Uint8Array,
  signatureHeader: string | string[] | undefined,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookPayload {
  const header = Array.isArray(signatureHeader) ? signatureHeader.join(',') : signatureHeader;
  const opts = { toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS, ...(options.nowSeconds === undefined ? {} : { nowSeconds: options.nowSeconds }) };
  let reason = 'no secret given';
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const result = verifySignature(rawBody, header, secret, opts);
    if (result.valid) return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as WebhookPayload;
    reason = result.reason;
  }
  throw new WebhookVerificationError(`Webhook signature refused: ${reason}`);
}
