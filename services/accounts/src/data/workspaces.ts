import { invalidParameters } from '@spa/errors';
import { isDuplicateKeyError } from '@spa/mongo';
import type { SubscriptionStatus, Tier } from '@spa/vocabulary';
import type { User, Workspace } from '../domain/model.js';
import type { MembershipsRepository, UsersRepository, WorkspacePatch, WorkspacesRepository } from '../domain/ports.js';
import type { AccountsModels, WorkspaceState } from './models.js';
import { RevisionLog } from './revisions.js';

/** Holds the changeable fields as created (revision 0). */
interface WorkspaceDoc extends WorkspaceState {
  _id: number;
  name: string;
  owner_user_id: number;
  created_at: Date;
}

/** The workspace `head` names, in the state `s` (the latest revision, or the head's own revision 0). */
const toWorkspace = (head: WorkspaceDoc, s: WorkspaceState = head): Workspace => ({
  id: head._id,
  name: head.name,
  tier: s.tier as Tier,
  subscriptionStatus: s.subscription_status as SubscriptionStatus,
  reviewRequired: s.review_required,
  ownerUserId: head.owner_user_id,
  createdAt: head.created_at,
  currentPeriodEnd: s.current_period_end ?? undefined,
  cancelAtPeriodEnd: s.cancel_at_period_end ?? false,
});

/** Only the changeable fields (a head document holds more), with `patch` applied. */
const workspaceState = (s: WorkspaceState, patch: WorkspacePatch): WorkspaceState => ({
  tier: patch.tier ?? s.tier,
  subscription_status: patch.subscriptionStatus ?? s.subscription_status,
  review_required: patch.reviewRequired ?? s.review_required,
  current_period_end: patch.currentPeriodEnd ?? s.current_period_end ?? null,
  cancel_at_period_end: patch.cancelAtPeriodEnd ?? s.cancel_at_period_end ?? false,
});

/** Workspaces: the head document holds what never changes; subscription and review changes are revisions. */
export class MongoWorkspaces implements WorkspacesRepository {
  private readonly states: RevisionLog<WorkspaceState>;

  constructor(private readonly models: AccountsModels) {
    this.states = new RevisionLog(models.WorkspaceRevision, (key) => `Workspace ${key}`);
  }

  async insert(w: Workspace): Promise<void> {
    await this.models.Workspace.create({
      _id: w.id,
      name: w.name,
      tier: w.tier,
      subscription_status: w.subscriptionStatus,
      review_required: w.reviewRequired,
      owner_user_id: w.ownerUserId,
      created_at: w.createdAt,
      current_period_end: w.currentPeriodEnd,
      cancel_at_period_end: w.cancelAtPeriodEnd,
    });
  }

  async get(id: number): Promise<Workspace | null> {
    const [head, state] = await Promise.all([this.models.Workspace.findById(id).lean<WorkspaceDoc>(), this.states.latest(id, String(id))]);
    return head ? toWorkspace(head, state ?? head) : null;
  }

  async update(id: number, patch: WorkspacePatch): Promise<Workspace | null> {
    const head = await this.models.Workspace.findById(id).lean<WorkspaceDoc>();
    if (!head) return null;
    const state = await this.states.change(id, String(id), (current) => workspaceState(current ?? head, patch));
    return state && toWorkspace(head, state);
  }
}

export class MongoUsers implements UsersRepository {
  constructor(private readonly models: AccountsModels) {}

  async insert(u: User): Promise<void> {
    try {
      await this.models.User.create({ _id: u.id, email: u.email, created_at: u.createdAt });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw invalidParameters([`email ${u.email} is already registered`]);
      throw err;
    }
  }

  async get(id: number): Promise<User | null> {
    const doc = await this.models.User.findById(id).lean<{ _id: number; email: string; created_at: Date }>();
    return doc ? { id: doc._id, email: doc.email, createdAt: doc.created_at } : null;
  }
}

export class MongoMemberships implements MembershipsRepository {
  constructor(private readonly models: AccountsModels) {}

  async add(workspaceId: number, userId: number): Promise<void> {
    try {
      await this.models.Membership.create({ workspace_id: workspaceId, user_id: userId });
    } catch (err) {
      // Already a member (maybe by a racing request): adding is idempotent.
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async remove(workspaceId: number, userId: number): Promise<boolean> {
    const result = await this.models.Membership.deleteOne({ workspace_id: workspaceId, user_id: userId });
    return result.deletedCount > 0;
  }

  async isMember(workspaceId: number, userId: number): Promise<boolean> {
    return (await this.models.Membership.exists({ workspace_id: workspaceId, user_id: userId })) !== null;
  }
}
