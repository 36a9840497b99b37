import { randomBytes } from 'node:crypto';

export { createSecretBox } from '@spa/secret-box';

/** A new webhook secret: 256 random bits, prefixed like other receivers expect (`whsec_`). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
