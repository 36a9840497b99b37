import { decodePublicEvent } from '@spa/events';
import { EVENTS_STREAM, workspaceEventsFilter, type NatsConnection } from '@spa/nats';
import { jetstreamManager, type JetStreamManager, type StoredMsg } from '@nats-io/jetstream';
import type { EventLog, EventLogPage } from '../domain/event-log.js';
import type { LoggedEvent } from '../domain/payload.js';

/** Direct gets in flight at once for one subject's read. */
const MAX_WINDOW = 256;

/**
 * The event log, read straight from the EVENTS stream: a workspace's events are the messages of its subjects,
 * in stream order, and an event's cursor is its stream sequence. JetStream assigns a sequence as it stores a
 * message, so once an event is readable every event before it is too: a cursor never passes over an event
 * that lands later (a late writer gets a later sequence), and reading after a cursor again gives the same
 * events. Several kinds are one subject each, read apart and merged by sequence.
 */
export class StreamEventLog implements EventLog {
  private jsm: Promise<JetStreamManager> | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
  ) {}

  async read(workspaceId: number, after: number, kinds: readonly string[], limit: number): Promise<EventLogPage> {
    const jsm = await (this.jsm ??= jetstreamManager(this.nc));
    const subjects = kinds.length ? kinds.map((k) => workspaceEventsFilter(this.namespace, workspaceId, k)) : [workspaceEventsFilter(this.namespace, workspaceId)];
    // Each subject's first limit + 1 messages after the cursor (one more tells whether the page is the last).
    const found = (await Promise.all(subjects.map((s) => firstAfter(jsm, s, after, limit + 1)))).flat().sort((a, b) => a.seq - b.seq);
    const page = found.slice(0, limit);
    const events = page.map((m) => ({ cursor: m.seq, event: decodePublicEvent(m.data) as LoggedEvent }));
    return { events, nextCursor: events.at(-1)?.cursor ?? after, hasMore: found.length > limit };
  }
}

/**
 * The first `count` messages of `subject` after sequence `after`, in order. A direct get answers the subject's
 * first message at or after a sequence, so gets at `from`, `from + 1`, … `from + w - 1`, sent at once, answer
 * every message of the subject in that range plus the first one beyond it: no message between is missed. Where
 * the subject is dense (one workspace's events) a window of gets finds a window of events in one round trip;
 * where it is sparse the answers repeat, and the next round asks one at a time, jumping from event to event.
 */
async function firstAfter(jsm: JetStreamManager, subject: string, after: number, count: number): Promise<StoredMsg[]> {
  const out: StoredMsg[] = [];
  let from = after + 1;
  let window = Math.min(count, MAX_WINDOW);
  while (out.length < count) {
    const answers = await Promise.all(Array.from({ length: window }, (_, i) => jsm.direct.getMessage(EVENTS_STREAM.name, { seq: from + i, next_by_subj: subject })));
    const seen = new Set<number>();
    const fresh = answers.filter((m): m is StoredMsg => !!m && !seen.has(m.seq) && !!seen.add(m.seq));
    if (!fresh.length) break;
    out.push(...fresh.sort((a, b) => a.seq - b.seq));
    // The gets covered every sequence up to the last answer: the next round starts after it.
    const last = fresh.at(-1)!.seq;
    const density = fresh.length / (last - from + 1);
    from = last + 1;
    const wanted = count - out.length;
    window = fresh.length <= 2 ? 1 : Math.max(1, Math.min(MAX_WINDOW, Math.ceil(wanted / Math.max(density, 1 / MAX_WINDOW))));
    // Fewer answers than gets, none beyond the window: the subject ended.
    if (answers.some((m) => !m)) break;
  }
  return out.slice(0, count);
}
