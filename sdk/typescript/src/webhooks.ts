import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verifySignature } from '@spa/webhook-signature';
import type { components } from './generated/openapi.js';

/** The JSON body of a webhook delivery (post.published, post.failed, post.partial_failure, webhook.test). */
export type WebhookEvent = components['schemas']['WebhookEvent'];

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
  const header = Array.isArray(signatureHeader) ? signatureHeader.join(',') : signatureHeader;
  const opts = { toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS, ...(options.nowSeconds === undefined ? {} : { nowSeconds: options.nowSeconds }) };
  let reason = 'no secret given';
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const result = verifySignature(rawBody, header, secret, opts);
    if (result.valid) return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as WebhookEvent;
    reason = result.reason;
  }
  throw new WebhookVerificationError(`Webhook signature refused: ${reason}`);
}
