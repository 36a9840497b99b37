import type { ApiKey, CustomRule, CustomRulePatch, PostingSchedule, Site, SocialAccount, StoredPreferences, User, Workspace } from './model.js';

/** The workspace fields an operator changes. */
export type WorkspacePatch = Partial<Pick<Workspace, 'tier' | 'subscriptionStatus' | 'reviewRequired' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'>>;

/** Persistence the accounts use cases need; every workspace-owned query names its workspace. */
export interface AccountsStore {
  nextId(sequence: 'workspaces' | 'users' | 'api_keys' | 'sites' | 'social_accounts' | 'posting_schedules' | 'custom_rules'): Promise<number>;
  nextIds(sequence: 'posting_slots', count: number): Promise<number[]>;

  insertWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(id: number): Promise<Workspace | null>;
  /**
   * Sets the fields present in `patch` and answers the workspace as this change left it (null when there is
   * none). Exact under concurrency: racing changes of different fields all survive.
   */
  updateWorkspace(id: number, patch: WorkspacePatch): Promise<Workspace | null>;

  /** Throws AppError INVALID_PARAMETERS when the email is taken. */
  insertUser(user: User): Promise<void>;
  getUser(id: number): Promise<User | null>;

  addMembership(workspaceId: number, userId: number): Promise<void>;
  removeMembership(workspaceId: number, userId: number): Promise<boolean>;
  isMember(workspaceId: number, userId: number): Promise<boolean>;

  /** Throws AppError API_KEY_LIMIT_REACHED when the workspace already has an active key (atomic). */
  insertActiveApiKey(key: ApiKey): Promise<void>;
  /**
   * Revokes the workspace's active key and answers it (null when there is none). Exact under concurrency:
   * of racing revokes one revokes a key, the others find it gone (or revoke the key created after it).
   */
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
  /**
   * Stores the schedule `change` computes from the current one and answers it (null when there is no such
   * schedule). Exact under concurrency: a change racing another is recomputed from its result (so `change`
   * may run more than once), so racing changes of different fields all survive. An error thrown by
   * `change` aborts the update with nothing written.
   */
  changeSchedule(workspaceId: number, scheduleId: number, change: (current: PostingSchedule) => PostingSchedule): Promise<PostingSchedule | null>;

  getPreferences(workspaceId: number): Promise<StoredPreferences | null>;
  /**
   * Stores what `change` computes from the stored preferences. Exact under concurrency: a change racing
   * another is recomputed from its result (so `change` may run more than once), so merges of different
   * fields all survive.
   */
  changePreferences(workspaceId: number, change: (current: StoredPreferences | null) => StoredPreferences): Promise<void>;

  /**
   * Inserts the rule unless the workspace already holds `maxPerWorkspace` rules (false then). Exact under
   * concurrency: each rule takes one of the workspace's numbered slots, kept by a unique index.
   */
  insertCustomRule(rule: CustomRule, maxPerWorkspace: number): Promise<boolean>;
  listCustomRules(workspaceId: number, filter?: { active?: boolean }): Promise<CustomRule[]>;
  getCustomRule(workspaceId: number, id: number): Promise<CustomRule | null>;
  /**
   * Applies the fields `change` computes from the current rule; exact under concurrency (a change racing
   * another is recomputed from its result, so `change` may run more than once). Null when there is no such rule.
   */
  changeCustomRule(workspaceId: number, id: number, change: (current: CustomRule) => CustomRulePatch, at: Date): Promise<CustomRule | null>;
  /** The deleted rule, or null when there was none. */
  deleteCustomRule(workspaceId: number, id: number): Promise<CustomRule | null>;
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
