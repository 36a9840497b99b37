import type { PostingSchedule } from '../domain/model.js';
import type { PostingSchedulesRepository } from '../domain/ports.js';
import type { AccountsModels, ScheduleState } from './models.js';
import { RevisionLog } from './revisions.js';

/** Holds the schedule as created (revision 0). */
interface ScheduleDoc extends ScheduleState {
  _id: number;
  workspace_id: number;
  social_account_id: number;
}

/** The schedule `head` names, in the state `s` (the latest revision, or the head's own revision 0). */
const toSchedule = (head: ScheduleDoc, s: ScheduleState = head): PostingSchedule => ({
  id: head._id,
  workspaceId: head.workspace_id,
  socialAccountId: head.social_account_id,
  timezone: s.timezone,
  maxPostsPerDay: s.max_posts_per_day,
  paused: s.paused,
  postingSlots: s.posting_slots.map((p) => ({ id: p.id, dayOfWeek: p.day_of_week, timeOfDay: p.time_of_day, enabled: p.enabled, source: p.source })),
  updatedAt: s.updated_at,
});

const scheduleState = (s: PostingSchedule): ScheduleState => ({
  timezone: s.timezone,
  max_posts_per_day: s.maxPostsPerDay,
  paused: s.paused,
  posting_slots: s.postingSlots.map((p) => ({ id: p.id, day_of_week: p.dayOfWeek, time_of_day: p.timeOfDay, enabled: p.enabled, source: p.source })),
  updated_at: s.updatedAt,
});

/** Posting schedules (one per social account): the head holds the schedule as created, changes are revisions. */
export class MongoPostingSchedules implements PostingSchedulesRepository {
  private readonly states: RevisionLog<ScheduleState>;

  constructor(private readonly models: AccountsModels) {
    this.states = new RevisionLog(models.ScheduleRevision, (key) => `Posting schedule ${key}`);
  }

  async insert(s: PostingSchedule): Promise<void> {
    await this.models.PostingSchedule.create({ _id: s.id, workspace_id: s.workspaceId, social_account_id: s.socialAccountId, ...scheduleState(s) });
  }

  async list(workspaceId: number): Promise<PostingSchedule[]> {
    const [heads, states] = await Promise.all([this.models.PostingSchedule.find({ workspace_id: workspaceId }).sort({ _id: 1 }).lean<ScheduleDoc[]>(), this.states.latestOfWorkspace(workspaceId)]);
    return heads.map((head) => toSchedule(head, states.get(String(head._id))));
  }

  async find(workspaceId: number, by: { id: number } | { socialAccountId: number }): Promise<PostingSchedule | null> {
    const filter = 'id' in by ? { _id: by.id, workspace_id: workspaceId } : { social_account_id: by.socialAccountId, workspace_id: workspaceId };
    const head = await this.models.PostingSchedule.findOne(filter).lean<ScheduleDoc>();
    return head && toSchedule(head, (await this.states.latest(workspaceId, String(head._id))) ?? head);
  }

  async change(workspaceId: number, scheduleId: number, change: (current: PostingSchedule) => PostingSchedule): Promise<PostingSchedule | null> {
    const head = await this.models.PostingSchedule.findOne({ _id: scheduleId, workspace_id: workspaceId }).lean<ScheduleDoc>();
    if (!head) return null;
    const state = await this.states.change(workspaceId, String(scheduleId), (current) => scheduleState(change(toSchedule(head, current ?? head))));
    return state && toSchedule(head, state);
  }
}
