import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../domain/dashboard-ports.js';

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane); the parameters travel in the hash. */
export const argon2Hasher: PasswordHasher = {
  hash: (password) => hash(password, { algorithm: 2 /* Algorithm.Argon2id (an ambient const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 }),
  verify: async (stored, password) => {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  },
};
