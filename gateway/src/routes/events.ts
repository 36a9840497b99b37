import { eventKindCodec } from '@spa/contracts/codecs';
import { EVENT_KINDS, type EventKind } from '@spa/vocabulary';
import { z } from 'zod';
import { LoggedEventSchema } from '../openapi/event-kinds.js';
import { route } from './route.js';

const isKind = (k: string): k is EventKind => (EVENT_KINDS as readonly string[]).includes(k);

const EventsQuerySchema = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,15}$/, 'must be a cursor from this log (digits)')
      .optional()
      .describe("An event's `cursor` (or a page's `next_cursor`): the events after it. Absent: from the oldest event kept"),
    kinds: z
      .string()
      .optional()
      .describe(`Comma-separated event kinds (${EVENT_KINDS.join(', ')}); absent: every kind`)
      .transform((s, ctx) => {
        if (s === undefined) return [];
        const list = s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        for (const x of list.filter((x) => !isKind(x))) ctx.addIssue({ code: 'custom', message: `unknown event kind ${JSON.stringify(x)}; allowed: ${EVENT_KINDS.join(', ')}` });
        return [...new Set(list.filter(isKind))];
      }),
    limit: z.coerce.number().int().min(1).max(1000).default(100).meta({ format: 'int32' }).describe('Events per page: 1 to 1000, default 100'),
  })
  .strict();

/** One event as the log serves it: its data as its owner made it; a post's events carry `post_id` at the top, as their deliveries do. */
const loggedEventJson = (e: { cursor: number; id: string; kind: number; version: number; occurredAt: string; dataJson: string }) => {
  const kind = eventKindCodec.require(e.kind);
  const data = JSON.parse(e.dataJson) as Record<string, unknown>;
  return {
    id: e.id,
    cursor: String(e.cursor),
    event: kind,
    version: e.version,
    ...(kind.startsWith('post.') && typeof data.post_id === 'number' ? { post_id: data.post_id } : {}),
    occurred_at: e.occurredAt,
    data,
  };
};

export const eventRoutes = [
  route({
    method: 'get',
    path: '/events',
    tag: 'Events',
    summary: "The workspace's event log, after a cursor",
    description: [
      'Every event of the workspace in the order they happened, kept 30 days: the terminal post events and every lifecycle kind (whether or not a webhook chose it), each with the `data` its webhook delivery carries (see the webhooks section). ',
      "An event's `id` is the `event_id` of its webhook deliveries, so a consumer that missed deliveries catches up here and deduplicates on it. ",
      'Read from the start (no `after`), then pass each page’s `next_cursor` as `after`: pages follow each other without a gap or a repeat, also while new events arrive ',
      '(an event is only in the log once every earlier one is, so a cursor never passes over an event that was still being written). `has_more` says whether more events followed the page when it was read; ',
      'with none, poll again later from the same `next_cursor`. Events older than 30 days are gone: a cursor older than the oldest kept event reads on from the oldest kept.',
    ].join(''),
    audience: 'api_key',
    scope: 'events:read',
    plan: 'paid',
    query: EventsQuerySchema,
    status: 200,
    response: z.object({
      events: z.array(LoggedEventSchema),
      next_cursor: z.string().describe('Pass as `after` for the next page: the last event’s cursor, or `after` itself when the page is empty ("0" from the start)'),
      has_more: z.boolean(),
    }),
    handle: async ({ clients, principal, query }) => {
      const page = await clients.events.listEvents({
        workspaceId: principal.workspaceId,
        after: Number(query.after ?? 0),
        kinds: query.kinds.map(eventKindCodec.toProto),
        limit: query.limit,
      });
      return { events: page.events.map(loggedEventJson), next_cursor: String(page.nextCursor), has_more: page.hasMore };
    },
  }),
];
