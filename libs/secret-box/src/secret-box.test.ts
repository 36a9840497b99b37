import { describe, expect, it } from 'vitest';
import { createSecretBox } from './index.js';

const newWebhookSecret = () => 'whsec_' + 'a'.repeat(43);

describe('secret box (AES-256-GCM at rest)', () => {
  const box = createSecretBox('k'.repeat(32));
  it('round-trips, never stores the plain text, and uses a fresh IV each time', () => {
    const secret = newWebhookSecret();
    const sealed = box.encrypt(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(box.encrypt(secret)).not.toBe(sealed);
    expect(box.decrypt(sealed)).toBe(secret);
  });
  it('refuses a tampered value or another key', () => {
    const sealed = box.encrypt('whsec_x');
    const parts = sealed.split('.');
    const tampered = [parts[0], parts[1], parts[2], Buffer.from('whsec_y').toString('base64url')].join('.');
    expect(() => box.decrypt(tampered)).toThrow();
    expect(() => createSecretBox('j'.repeat(32)).decrypt(sealed)).toThrow();
  });
});
