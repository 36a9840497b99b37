import type { ApiKey, PostingSchedule, Site, SocialAccount, User, Workspace } from './model.js';

/** Persistence the accounts use cases need; every workspace-owned query names its workspace. */
export interface AccountsStore {
  nextId(sequence: 'workspaces' | 'users' | 'api_keys' | 'sites' | 'social_accounts' | 'posting_schedules'): Promise<number>;
  nextIds(sequence: 'posting_slots', count: number): Promise<number[]>;

  insertWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(id: number): Promise<Workspace | null>;
  updateWorkspace(id: number, patch: Partial<Pick<Workspace, 'tier' | 'subscriptionStatus' | 'reviewRequired'>>): Promise<Workspace | null>;

  /** Throws AppError INVALID_PARAMETERS when the email is taken. */
  insertUser(user: User): Promise<void>;
  getUser(id: number): Promise<User | null>;

  addMembership(workspaceId: number, userId: number): Promise<void>;
  removeMembership(workspaceId: number, userId: number): Promise<boolean>;
  isMember(workspaceId: number, userId: number): Promise<boolean>;

  /** Throws AppError API_KEY_LIMIT_REACHED when the workspace already has an active key (atomic). */
  insertActiveApiKey(key: ApiKey): Promise<void>;
  revokeActiveApiKey(workspaceId: number, at: Date): Promise<ApiKey | null>;
  findActiveApiKeyByHash(hash: string): Promise<ApiKey | null>;

  insertSite(site: Site): Promise<void>;
  getSite(workspaceId: number, siteId: number): Promise<Site | null>;
  findSiteByTokenHash(hash: string): Promise<Site | null>;

  insertSocialAccount(account: SocialAccount): Promise<void>;
  listSocialAccounts(workspaceId: number, ids?: number[]): Promise<SocialAccount[]>;
  markDisconnected(workspaceId: number, socialAccountId: number): Promise<boolean>;

  insertSchedule(schedule: PostingSchedule): Promise<void>;
  listSchedules(workspaceId: number): Promise<PostingSchedule[]>;
  findSchedule(workspaceId: number, by: { id: number } | { socialAccountId: number }): Promise<PostingSchedule | null>;
  /** Replaces the schedule unless it changed since `current` was read (false then). */
  replaceSchedule(current: PostingSchedule, next: PostingSchedule): Promise<boolean>;
}

export interface Clock {
  now(): Date;
}

/** Encrypts secrets at rest (platform credentials). */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface AccountsDeps {
  store: AccountsStore;
  clock: Clock;
  secrets: SecretBox;
}
