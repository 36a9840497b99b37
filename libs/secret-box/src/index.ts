import { createCipheriv, createDecipheriv, createHash, createSecretKey, randomBytes } from 'node:crypto';

/** Seals and opens secrets kept at rest. */
export interface SecretBox {
  encrypt(plain: string): string;
  /** Throws when the sealed value was altered or sealed with another key. */
  decrypt(sealed: string): string;
}

const VERSION = 'v1';

/** AES-256-GCM with a key derived from the configured SECRETS_KEY (SHA-256); output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function createSecretBox(secretsKey: string): SecretBox {
  // A key object made once: a raw key buffer is turned into one on every cipher (about 10 µs each; the
  // webhooks dispatcher opens a secret per attempt).
  const key = createSecretKey(createHash('sha256').update(secretsKey, 'utf8').digest());
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
