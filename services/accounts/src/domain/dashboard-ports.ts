import type { ApiKey, Site, User } from './model.js';
import type { AccountsDeps } from './ports.js';

/** Persistence of sign-in and of the dashboard's read models (beside AccountsStore, which stays the owner of the rest). */
export interface DashboardStore {
  /** Sets or replaces the user's password hash. */
  setPasswordHash(userId: number, hash: string, at: Date): Promise<void>;
  getPasswordHash(userId: number): Promise<string | null>;
  /** `email` is already normalized (trimmed, lower case). */
  findUserByEmail(email: string): Promise<User | null>;
  /** The ids of the workspaces the user belongs to, oldest membership first. */
  listMemberWorkspaceIds(userId: number): Promise<number[]>;
  /** The workspace's active (not revoked) key, or null. */
  findActiveApiKey(workspaceId: number): Promise<ApiKey | null>;
  recordApiKeyUse(keyId: number, at: Date): Promise<void>;
  lastApiKeyUse(keyId: number): Promise<Date | null>;
  listSites(workspaceId: number): Promise<Site[]>;
}

/** Hashes and checks passwords (argon2id). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export interface DashboardDeps extends AccountsDeps {
  dashboard: DashboardStore;
  passwords: PasswordHasher;
}
