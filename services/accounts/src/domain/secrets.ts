import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'sk_live_';
export const SITE_TOKEN_PREFIX = 'st_live_';

/** A new random secret: a recognisable prefix and 256 bits of base64url. */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
