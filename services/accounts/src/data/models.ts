import { Schema, type Connection } from 'mongoose';
import type { RevisionDoc } from './revisions.js';

/** The preferences a workspace has set (only those; defaults live in the domain). */
export interface PreferencesState {
  tone?: string;
  include_emoji?: boolean;
  structure?: string;
  custom_rules?: string;
  timezone?: string;
  use_post_metrics_for_ai?: boolean;
  theme?: string;
  ai_model?: string;
  email_notifications?: { post_failure?: boolean; weekly_briefing?: boolean; product_tips?: boolean; re_engagement?: boolean };
  link_shortening_enabled?: boolean;
  /** The workspace's Dub API key sealed by the secret box (AES-256-GCM, as platform credentials); '' when removed. */
  dub_api_key_sealed?: string;
  updated_at: Date;
}

/**
 * The fields of a workspace the operator changes (the rest never change). The workspace document holds
 * their first values (revision 0, also what documents written before revisions hold); changes are revisions.
 */
export interface WorkspaceState {
  tier: string;
  subscription_status: string;
  review_required: boolean;
  current_period_end?: Date | null;
  cancel_at_period_end?: boolean | null;
}

/**
 * The changeable fields of a posting schedule. The schedule document holds them as created (revision 0,
 * also what documents written before revisions hold); every change is a revision.
 */
export interface ScheduleState {
  timezone: string;
  max_posts_per_day: number;
  paused: boolean;
  posting_slots: Array<{ id: number; day_of_week: number; time_of_day: string; enabled: boolean; source: string }>;
  updated_at: Date;
}

/** The changeable fields of a custom rule. */
export interface CustomRuleState {
  title: string;
  content: string;
  active: boolean;
  scope: string;
  updated_at: Date;
}

export function revisionSchema(collection: string) {
  const schema = new Schema(
    {
      _id: String,
      key: { type: String, required: true },
      workspace_id: { type: Number, required: true },
      rev: { type: Number, required: true },
      // Emptied once a newer revision exists.
      state: { type: Schema.Types.Mixed },
      // The value was removed at this revision (a tombstone: kept, so its number is never taken again).
      deleted: Boolean,
    },
    { collection, versionKey: false, minimize: false },
  );
  schema.index({ workspace_id: 1, key: 1, rev: -1 });
  return schema;
}

/** Mongoose schemas of the accounts database. `_id` is the public integer id. */
export function registerModels(connection: Connection) {
  // Tier, subscription and review flag as created (revision 0, a WorkspaceState); changes are WorkspaceRevisions.
  const Workspace = connection.model(
    'Workspace',
    new Schema(
      {
        _id: Number,
        name: { type: String, required: true },
        tier: { type: String, required: true },
        subscription_status: { type: String, required: true },
        review_required: { type: Boolean, default: false },
        owner_user_id: { type: Number, required: true },
        created_at: { type: Date, required: true },
        current_period_end: { type: Date },
        cancel_at_period_end: { type: Boolean, default: false },
      },
      { collection: 'workspaces', versionKey: false },
    ),
  );
  const User = connection.model(
    'User',
    new Schema({ _id: Number, email: { type: String, required: true, unique: true }, created_at: { type: Date, required: true } }, { collection: 'users', versionKey: false }),
  );
  const membershipSchema = new Schema({ workspace_id: { type: Number, required: true }, user_id: { type: Number, required: true } }, { collection: 'memberships', versionKey: false });
  membershipSchema.index({ workspace_id: 1, user_id: 1 }, { unique: true });
  const Membership = connection.model('Membership', membershipSchema);

  const ApiKey = connection.model(
    'ApiKey',
    new Schema(
      {
        _id: Number,
        workspace_id: { type: Number, required: true, index: true },
        user_id: { type: Number, required: true },
        hash: { type: String, required: true, unique: true },
        scopes: { type: [String], required: true },
        // "active:<workspace>" while active, "revoked:<key>" after: a unique index on it keeps
        // one active key per workspace atomically, without partial indexes.
        slot: { type: String, required: true, unique: true },
        created_at: { type: Date, required: true },
        revoked_at: { type: Date },
        // The first characters of the secret (what the dashboard shows); not enough to guess it.
        prefix: { type: String },
      },
      { collection: 'api_keys', versionKey: false },
    ),
  );
  // One per revoked key (`_id` = the key's id): the unique insert decides which of racing revokes revokes
  // the key; the key's slot is freed after it (by whoever finds it not yet freed).
  const ApiKeyRevocation = connection.model(
    'ApiKeyRevocation',
    new Schema({ _id: Number, workspace_id: { type: Number, required: true }, revoked_at: { type: Date, required: true } }, { collection: 'api_key_revocations', versionKey: false }),
  );
  const Site = connection.model(
    'Site',
    new Schema(
      {
        _id: Number,
        workspace_id: { type: Number, required: true, index: true },
        name: { type: String, required: true },
        url: { type: String, required: true },
        cms: { type: String, required: true },
        token_hash: { type: String, required: true, unique: true },
        created_at: { type: Date, required: true },
        last_push_at: { type: Date },
        unmatched_pushes: { type: Number, default: 0 },
      },
      { collection: 'sites', versionKey: false },
    ),
  );
  const SocialAccount = connection.model(
    'SocialAccount',
    new Schema(
      {
        _id: Number,
        workspace_id: { type: Number, required: true, index: true },
        platform: { type: String, required: true },
        username: { type: String, required: true },
        sandbox: { type: Boolean, default: false },
        disconnected: { type: Boolean, default: false },
        created_at: { type: Date, required: true },
        sealed_credentials: { type: String },
      },
      { collection: 'social_accounts', versionKey: false },
    ),
  );
  const scheduleSchema = new Schema(
    {
      _id: Number,
      workspace_id: { type: Number, required: true },
      social_account_id: { type: Number, required: true, unique: true },
      // The schedule as created (revision 0, a ScheduleState); its changes are ScheduleRevisions.
      timezone: { type: String, required: true },
      max_posts_per_day: { type: Number, required: true },
      paused: { type: Boolean, default: false },
      posting_slots: {
        type: [new Schema({ id: Number, day_of_week: Number, time_of_day: String, enabled: Boolean, source: String }, { _id: false })],
        default: [],
      },
      updated_at: { type: Date, required: true },
    },
    { collection: 'posting_schedules', versionKey: false },
  );
  scheduleSchema.index({ workspace_id: 1 });
  const PostingSchedule = connection.model('PostingSchedule', scheduleSchema);

  // Workspace flags, posting schedules, preferences and custom rule contents change through revisions
  // (see RevisionLog): exact under concurrency.
  const WorkspaceRevision = connection.model<RevisionDoc<object>>('WorkspaceRevision', revisionSchema('workspace_revisions'));
  const ScheduleRevision = connection.model<RevisionDoc<object>>('ScheduleRevision', revisionSchema('posting_schedule_revisions'));
  const PreferencesRevision = connection.model<RevisionDoc<object>>('PreferencesRevision', revisionSchema('preferences_revisions'));

  const customRuleSchema = new Schema(
    {
      _id: Number,
      workspace_id: { type: Number, required: true, index: true },
      // "<workspace>:<n>", n below the per-workspace maximum: the unique index caps the rules of a workspace
      // atomically (no counter to race on); deleting a rule frees its slot.
      slot: { type: String, required: true, unique: true },
      created_at: { type: Date, required: true },
    },
    { collection: 'custom_rules', versionKey: false },
  );
  const CustomRule = connection.model('CustomRule', customRuleSchema);
  const CustomRuleRevision = connection.model<RevisionDoc<object>>('CustomRuleRevision', revisionSchema('custom_rule_revisions'));
  return {
    Workspace,
    WorkspaceRevision,
    User,
    Membership,
    ApiKey,
    ApiKeyRevocation,
    Site,
    SocialAccount,
    PostingSchedule,
    ScheduleRevision,
    PreferencesRevision,
    CustomRule,
    CustomRuleRevision,
  };
}

export type AccountsModels = ReturnType<typeof registerModels>;
