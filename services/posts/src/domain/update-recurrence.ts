import { AppError, invalidParameters } from '@spa/errors';
import type { Post } from './model.js';
import type { PostsDeps } from './ports.js';
import { assertRecurringAllowed, recurrenceProblems, type RecurrenceFields } from './recurrence.js';

/** The fields of a posted evergreen original that govern its series, and so stay editable after posting. */
const RECURRENCE_KEYS = ['evergreen', 'evergreenVariations', 'recurrenceIntervalDays', 'recurrenceJitterEnabled'] as const;

/** Whether a patch changes only recurrence fields (what a post past editing still accepts). */
export const onlyRecurrence = (patch: object): boolean => {
  const given = Object.entries(patch).filter(([, v]) => v !== undefined);
  return given.length > 0 && given.every(([k]) => (RECURRENCE_KEYS as readonly string[]).includes(k));
};

/**
 * Changes the recurrence of a post that is past editing (posted, failed, partial): turning evergreen off
 * stops its series, new variations or interval apply from its next recycle. Not while it is publishing.
 */
export async function updateRecurrence(deps: PostsDeps, current: Post, patch: RecurrenceFields): Promise<Post> {
  if (current.status === 'publishing') throw new AppError('INVALID_STATE', `Post ${current.id} is being published; change it once it is posted, failed or partial`);
  const settings = await deps.accounts.workspaceSettings(current.workspaceId);
  assertRecurringAllowed(settings, [{ prefix: '', fields: patch }]);
  const problems = recurrenceProblems(patch);
  if (problems.length) throw invalidParameters(problems);
  const now = deps.clock.now();
  const next: Post = {
    ...current,
    evergreen: patch.evergreen ?? current.evergreen,
    evergreenVariations: patch.evergreenVariations ?? current.evergreenVariations,
    recurrenceIntervalDays: patch.recurrenceIntervalDays ?? current.recurrenceIntervalDays,
    recurrenceJitterEnabled: patch.recurrenceJitterEnabled ?? current.recurrenceJitterEnabled,
    updatedAt: now,
  };
  const saved = await deps.store.replace(current, next, {
    subject: 'posts.post.updated',
    msgId: `post-updated-${current.id}-${now.getTime()}`,
    workspaceId: current.workspaceId,
    postId: current.id,
    status: next.status,
    occurredAt: now,
    scheduledAt: next.scheduledAt,
    previous: { status: current.status, scheduledAt: current.scheduledAt },
  });
  if (!saved) throw new AppError('INVALID_STATE', `Post ${current.id} changed while it was being updated; read it again and retry`);
  deps.flushEvents();
  return saved;
}
