import type { PublishErrorClass } from '@spa/vocabulary';
import type { AccountEvent } from './account-events.js';
import type { ApiKey, CustomRule, CustomRulePatch, DisconnectCause, PostingSchedule, Site, SocialAccount, StoredPreferences, User, Workspace } from './model.js';

/** The workspace fields an operator changes. */
export type WorkspacePatch = Partial<Pick<Workspace, 'tier' | 'subscriptionStatus' | 'reviewRequired' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'>>;

/** Id sequences (one per kind of record). */
export interface IdSequences {
  next(sequence: 'workspaces' | 'users' | 'api_keys' | 'sites' | 'social_accounts' | 'posting_schedules' | 'custom_rules'): Promise<number>;
  reserve(sequence: 'posting_slots', count: number): Promise<number[]>;
}

// One repository per aggregate. Every query of an aggregate that belongs to a workspace names the
// workspace; the only lookups that do not are the authentications by a secret's hash, which find the
// workspace.

export interface WorkspacesRepository {
  insert(workspace: Workspace): Promise<void>;
  get(id: number): Promise<Workspace | null>;
  /**
   * Sets the fields present in `patch` and answers the workspace as this change left it (null when there is
   * none). Exact under concurrency: racing changes of different fields all survive.
   */
  update(id: number, patch: WorkspacePatch): Promise<Workspace | null>;
}

/** Users belong to no one workspace (memberships tie them to workspaces). */
export interface UsersRepository {
  /** Throws AppError INVALID_PARAMETERS when the email is taken. */
  insert(user: User): Promise<void>;
  get(id: number): Promise<User | null>;
}

export interface MembershipsRepository {
  /** Idempotent. */
  add(workspaceId: number, userId: number): Promise<void>;
  /** False when there was no such membership. */
  remove(workspaceId: number, userId: number): Promise<boolean>;
  isMember(workspaceId: number, userId: number): Promise<boolean>;
}

export interface ApiKeysRepository {
  /** Throws AppError API_KEY_LIMIT_REACHED when the workspace already has an active key (atomic). */
  insertActive(key: ApiKey): Promise<void>;
  /**
   * Revokes the workspace's active key and answers it (null when there is none). Exact under concurrency:
   * of racing revokes one revokes a key, the others find it gone (or revoke the key created after it).
   */
  revokeActive(workspaceId: number, at: Date): Promise<ApiKey | null>;
  /** Authentication: the active key with this hash, in whichever workspace. */
  findActiveByHash(hash: string): Promise<ApiKey | null>;
}

export interface SitesRepository {
  insert(site: Site): Promise<void>;
  get(workspaceId: number, siteId: number): Promise<Site | null>;
  /** Authentication: the site with this token hash, in whichever workspace. */
  findByTokenHash(hash: string): Promise<Site | null>;
}

export interface SocialAccountsRepository {
  /** `announce`: the public event of the insert (queued in the outbox before it). */
  insert(account: SocialAccount, announce?: AccountEvent): Promise<void>;
  /** The workspace's accounts (only those of `ids` when given), by id. */
  list(workspaceId: number, ids?: number[]): Promise<SocialAccount[]>;
  /** False when the workspace has no such account. */
  markDisconnected(workspaceId: number, socialAccountId: number, why?: { cause: DisconnectCause; message: string; announce?: AccountEvent | undefined }): Promise<boolean>;
  /** Keeps the class of a failed publish to the account; false when the workspace has no such account. */
  recordPublishError(workspaceId: number, socialAccountId: number, errorClass: PublishErrorClass, at: Date): Promise<boolean>;
}

export interface PostingSchedulesRepository {
  insert(schedule: PostingSchedule): Promise<void>;
  list(workspaceId: number): Promise<PostingSchedule[]>;
  find(workspaceId: number, by: { id: number } | { socialAccountId: number }): Promise<PostingSchedule | null>;
  /**
   * Stores the schedule `change` computes from the current one and answers it (null when there is no such
   * schedule). Exact under concurrency: a change racing another is recomputed from its result (so `change`
   * may run more than once), so racing changes of different fields all survive. An error thrown by
   * `change` aborts the update with nothing written.
   */
  change(workspaceId: number, scheduleId: number, change: (current: PostingSchedule) => PostingSchedule): Promise<PostingSchedule | null>;
}

export interface PreferencesRepository {
  get(workspaceId: number): Promise<StoredPreferences | null>;
  /**
   * Stores what `change` computes from the stored preferences. Exact under concurrency: a change racing
   * another is recomputed from its result (so `change` may run more than once), so merges of different
   * fields all survive.
   */
  change(workspaceId: number, change: (current: StoredPreferences | null) => StoredPreferences): Promise<void>;
}

export interface CustomRulesRepository {
  /**
   * Inserts the rule unless the workspace already holds `maxPerWorkspace` rules (false then). Exact under
   * concurrency: each rule takes one of the workspace's numbered slots, kept by a unique index.
   */
  insert(rule: CustomRule, maxPerWorkspace: number): Promise<boolean>;
  list(workspaceId: number, filter?: { active?: boolean }): Promise<CustomRule[]>;
  get(workspaceId: number, id: number): Promise<CustomRule | null>;
  /**
   * Applies the fields `change` computes from the current rule; exact under concurrency (a change racing
   * another is recomputed from its result, so `change` may run more than once). Null when there is no such rule.
   */
  change(workspaceId: number, id: number, change: (current: CustomRule) => CustomRulePatch, at: Date): Promise<CustomRule | null>;
  /** The deleted rule, or null when there was none. */
  delete(workspaceId: number, id: number): Promise<CustomRule | null>;
}

/** The repositories of the accounts aggregates. */
export interface AccountsRepositories {
  ids: IdSequences;
  workspaces: WorkspacesRepository;
  users: UsersRepository;
  memberships: MembershipsRepository;
  apiKeys: ApiKeysRepository;
  sites: SitesRepository;
  socialAccounts: SocialAccountsRepository;
  schedules: PostingSchedulesRepository;
  preferences: PreferencesRepository;
  customRules: CustomRulesRepository;
}

export interface Clock {
  now(): Date;
}

/** Encrypts secrets at rest (platform credentials). */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface AccountsDeps extends AccountsRepositories {
  clock: Clock;
  secrets: SecretBox;
  /** The deployment's Dub API key (DUB_API_KEY): used by workspaces that turn link shortening on without a key of their own. */
  dubFallbackKey?: string | undefined;
}
