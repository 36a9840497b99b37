import { invalidParameters } from '@spa/errors';
import { EVENT_KINDS } from '@spa/vocabulary';
import type { LoggedEvent } from './payload.js';

export interface EventLogPage {
  /** In log order, each with its cursor. */
  events: Array<{ cursor: number; event: LoggedEvent }>;
  /** Where to read on from: the last event's cursor, or the cursor read after when there was none. */
  nextCursor: number;
  /** More events followed the page when it was read. */
  hasMore: boolean;
}

/** A workspace's events in order, kept 30 days (the EVENTS stream). */
export interface EventLog {
  /** The events after `after` (0: from the oldest kept), only of `kinds` when any, at most `limit`. */
  read(workspaceId: number, after: number, kinds: readonly string[], limit: number): Promise<EventLogPage>;
}

export const DEFAULT_EVENTS_PAGE = 100;
export const MAX_EVENTS_PAGE = 1_000;

/** GET /events: the workspace's events after the cursor, in order; every bad field named. */
export function listEvents(log: EventLog, q: { workspaceId: number; after: number; kinds: readonly string[]; limit: number }): Promise<EventLogPage> {
  const problems: string[] = [];
  if (!Number.isSafeInteger(q.workspaceId) || q.workspaceId <= 0) problems.push('workspace_id must be a positive integer');
  if (!Number.isSafeInteger(q.after) || q.after < 0) problems.push('after must be a cursor (a non-negative integer)');
  if (!Number.isInteger(q.limit) || q.limit < 0 || q.limit > MAX_EVENTS_PAGE) problems.push(`limit must be between 1 and ${MAX_EVENTS_PAGE}`);
  q.kinds.forEach((k, i) => {
    if (!(EVENT_KINDS as readonly string[]).includes(k)) problems.push(`kinds[${i}] must be one of ${EVENT_KINDS.join(', ')} (got ${JSON.stringify(k)})`);
  });
  if (problems.length) throw invalidParameters(problems);
  return log.read(q.workspaceId, q.after, [...new Set(q.kinds)], q.limit || DEFAULT_EVENTS_PAGE);
}
