import { decodePublicEvent } from '@spa/events';
import { EVENTS_STREAM, workspaceEventsFilter, type NatsConnection } from '@spa/nats';
import { jetstreamManager, type JetStreamManager, type StoredMsg } from '@nats-io/jetstream';
import type { EventLog, EventLogPage } from '../domain/event-log.js';
import type { LoggedEvent } from '../domain/payload.js';

/** Direct gets in flight at once for one subject's read, and in its first round. */
const MAX_WINDOW = 256;
const FIRST_WINDOW = 32;

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
 * The first `count` messages of `subject` after sequence `after`, in order. A direct get answers the subject's first
 * message at or after a sequence `p`: so it tells that nothing of the subject lies in [p, answer) and that the answer
 * is one. Gets sent at once at several sequences ("probes") each cover such a span; where the spans of consecutive
 * probes touch, every message between is known, and the messages after the cursor are known as far as the spans
 * touch without a hole. Each round probes the start of every hole left, and beyond what is known, probes spaced by
 * the subject's density seen so far: a dense subject (a busy workspace) is read a window of consecutive sequences
 * per round trip, a sparse one (one workspace among many) a window of its events per round trip, each probe landing
 * in another gap between them.
 */
async function firstAfter(jsm: JetStreamManager, subject: string, after: number, count: number): Promise<StoredMsg[]> {
  /** Probe sequence → the first message at or after it (null: none). */
  const facts = new Map<number, StoredMsg | null>();
  for (;;) {
    const spans = [...facts.entries()].sort((x, y) => x[0] - y[0]);
    const holes: number[] = [];
    // Runs of touching spans, from a virtual one ending at the cursor; the first run is what is known for sure.
    let runEnd = after;
    let covered: number | undefined;
    for (const [probe, answer] of spans) {
      const end = answer ? answer.seq : Number.POSITIVE_INFINITY;
      if (probe > runEnd + 1) {
        covered ??= runEnd;
        holes.push(runEnd + 1);
        runEnd = end;
      } else runEnd = Math.max(runEnd, end);
    }
    covered ??= runEnd;
    const reach = runEnd;
    const known = [...new Map(spans.flatMap(([, m]) => (m ? [[m.seq, m] as const] : []))).values()].sort((a, b) => a.seq - b.seq);
    const sure = known.filter((m) => m.seq > after && m.seq <= covered);
    if (sure.length >= count || covered === Number.POSITIVE_INFINITY) return sure.slice(0, count);
    // The subject's density over what is known: the spacing of the next probes beyond it.
    const span = known.length ? known.at(-1)!.seq - after : 0;
    const stride = known.length ? Math.max(1, Math.floor(span / known.length)) : 1;
    const probes = holes.slice(0, MAX_WINDOW);
    // A first round looks a little way ahead only: the subject's density is not known yet.
    const wanted = Math.min(MAX_WINDOW - probes.length, count - sure.length, facts.size ? MAX_WINDOW : FIRST_WINDOW);
    if (reach !== Number.POSITIVE_INFINITY) for (let i = 0; i < wanted; i++) probes.push(reach + 1 + i * stride);
    const answers = await Promise.all(probes.map((seq) => jsm.direct.getMessage(EVENTS_STREAM.name, { seq, next_by_subj: subject })));
    probes.forEach((seq, i) => facts.set(seq, answers[i] ?? null));
  }
}
