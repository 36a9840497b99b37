import { eventIdOf, publicEvent, type EventOutbox } from '@spa/events';
import type { RunEvents } from '../domain/run-events.js';

/**
 * A run's end, queued in the image-week outbox: the entry is the announcement itself (its id derived from the
 * end's key, a unique insert), kept once sent, so announcing the same end again meets it and adds nothing.
 */
export class OutboxRunEvents implements RunEvents {
  constructor(private readonly outbox: EventOutbox) {}

  async finished(run: Parameters<RunEvents['finished']>[0], key: string): Promise<void> {
    const event = publicEvent(eventIdOf(this.outbox.namespace, `image-week-run:${key}`, run.kind), run.workspaceId, run.kind, run.at, run.data);
    await this.outbox.emit([event], true);
  }
}
