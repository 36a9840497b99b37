import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, signatureHeader } from '@spa/webhook-signature';
import { LIFECYCLE_EVENT_KINDS } from '@spa/vocabulary';
import { z } from 'zod';
import { EVENT_WHEN, EXAMPLE_EVENT_DATA, lifecycleEventSchema } from './event-kinds.js';
import type { ComponentSchemas } from './json-schema.js';

/** The outbound events of the contract's Events section, described as OpenAPI 3.1 `webhooks`. */
export const WEBHOOK_EVENTS = {
  'post.published': { status: 'posted', when: 'every target platform published successfully' },
  'post.failed': { status: 'failed', when: 'every target platform failed' },
  'post.partial_failure': { status: 'partial', when: 'some platforms published and some failed' },
  'webhook.test': { status: 'test', when: 'fired on demand from the dashboard (post_id 0, no platforms)' },
} as const;

export type WebhookEventKind = keyof typeof WEBHOOK_EVENTS;

export const WebhookEventSchema = z
  .object({
    id: z.uuid().describe('One per delivery (a UUID derived from the webhook and the source event), identical across retries and manual redeliveries: deduplicate on it'),
    event_id: z.uuid().optional().describe("The event's id in the event log (GET /events), the same in every webhook's delivery of it; absent on webhook.test"),
    event: z.enum(Object.keys(WEBHOOK_EVENTS) as [WebhookEventKind, ...WebhookEventKind[]]),
    post_id: z.number().int().describe('0 for webhook.test'),
    occurred_at: z.iso.datetime({ offset: true }),
    data: z.object({
      status: z.string().describe('posted, failed, partial, or test'),
      platforms: z.array(
        z.object({
          platform: z.string(),
          platform_status: z.string(),
          platform_post_id: z.string(),
          platform_error: z.string().nullable(),
        }),
      ),
      dry_run: z.boolean().optional().describe('The post was a dry run: its targets are dry_run, published nowhere'),
    }),
  })
  .meta({ id: 'WebhookEvent', description: 'The JSON body of every webhook delivery.' });

/** The secret the examples are signed with, so that a reader can check the example signature. */
export const EXAMPLE_SECRET = 'whsec_example';
const EXAMPLE_TIME = Date.UTC(2026, 2, 2, 9, 30) / 1000;

function examplePayload(kind: WebhookEventKind): z.infer<typeof WebhookEventSchema> {
  const status = WEBHOOK_EVENTS[kind].status;
  const platforms =
    kind === 'webhook.test'
      ? []
      : [
          {
            platform: 'mastodon',
            platform_status: kind === 'post.failed' ? 'failed' : 'posted',
            platform_post_id: kind === 'post.failed' ? '' : '113456789',
            platform_error: kind === 'post.failed' ? 'The instance refused the status: 422' : null,
          },
          ...(kind === 'post.partial_failure' ? [{ platform: 'bluesky', platform_status: 'failed', platform_post_id: '', platform_error: 'Session expired; reconnect the account' }] : []),
        ];
  return {
    id: '3f1c9a52-8a0e-4c57-9d6b-2a4f1e0c7b11',
    ...(kind === 'webhook.test' ? {} : { event_id: '0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f' }),
    event: kind,
    post_id: kind === 'webhook.test' ? 0 : 1234,
    occurred_at: new Date(EXAMPLE_TIME * 1000).toISOString(),
    data: { status, platforms, ...(kind === 'webhook.test' ? {} : { dry_run: false }) },
  };
}

const SIGNATURE_DESCRIPTION =
  `\`t=<unix seconds>,v1=<hex>[,v1=<hex>…]\`: v1 is the lowercase hex HMAC-SHA256 of \`<t>.<raw body>\` keyed with the webhook's secret. ` +
  'During a secret rotation the header carries one v1 per secret (the new one first); accept the request when any v1 matches. ' +
  `Verify on the raw bytes before parsing JSON, compare in constant time, and reject a t more than ${DEFAULT_TOLERANCE_SECONDS} s from your clock. ` +
  `The example is signed with the secret \`${EXAMPLE_SECRET}\`.`;

const HEADER_PARAMETERS = (body: string, id: string) => [
  { name: SIGNATURE_HEADER, in: 'header', required: true, description: SIGNATURE_DESCRIPTION, schema: { type: 'string' }, example: signatureHeader([EXAMPLE_SECRET], EXAMPLE_TIME, body) },
  { name: 'X-Service-Event-Id', in: 'header', required: true, description: 'Same value as the payload `id`', schema: { type: 'string', format: 'uuid' }, example: id },
  {
    name: 'X-Service-Attempt',
    in: 'header',
    required: true,
    description: 'Starts at 1; increments on each retry or manual redelivery',
    schema: { type: 'integer', minimum: 1 },
    example: 1,
  },
];

const DELIVERY_RULES =
  'Answer 2xx within 5 seconds; otherwise the delivery is retried up to 7 times ' + '(waits of 10 s, 100 s, 15 min, 1 h, 2 h, then 3 h). After 10 consecutive failed events the webhook is disabled.';

const RESPONSES = {
  '200': { description: 'Any 2xx answer within 5 seconds acknowledges the delivery' },
  '500': { description: 'Any other answer, or none within 5 seconds, is a failed attempt that is retried' },
};

/** An example delivery of a lifecycle kind. */
export function exampleLifecyclePayload(kind: (typeof LIFECYCLE_EVENT_KINDS)[number]): Record<string, unknown> {
  const data = EXAMPLE_EVENT_DATA[kind];
  return {
    id: '6b8e3f0a-2c1d-4e5f-9a7b-0c1d2e3f4a5b',
    event_id: '0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f',
    event: kind,
    version: 1,
    ...(kind.startsWith('post.') ? { post_id: data.post_id } : {}),
    occurred_at: new Date(EXAMPLE_TIME * 1000).toISOString(),
    data,
  };
}

/**
 * The `webhooks` object of the document: the contract's events (every webhook receives them unless it chooses
 * its kinds; the payload schema is referenced by `ref`), and each opt-in lifecycle kind with its own versioned
 * payload schema (named in `components`).
 */
export function webhooksSection(ref: object, components?: ComponentSchemas): Record<string, object> {
  const contract = (Object.keys(WEBHOOK_EVENTS) as WebhookEventKind[]).map((kind) => {
    const body = JSON.stringify(examplePayload(kind));
    return [
      kind,
      {
        post: {
          operationId: `webhook_${kind.replace('.', '_')}`,
          summary: `${kind}: ${WEBHOOK_EVENTS[kind].when}`,
          description: `Sent as an HTTPS POST to every webhook subscribed to the event (by default, every webhook). ${DELIVERY_RULES}`,
          tags: ['Webhooks'],
          security: [],
          parameters: HEADER_PARAMETERS(body, examplePayload(kind).id),
          requestBody: { required: true, content: { 'application/json': { schema: ref, example: examplePayload(kind) } } },
          responses: RESPONSES,
        },
      },
    ] as const;
  });
  const lifecycle = components
    ? LIFECYCLE_EVENT_KINDS.map((kind) => {
        const example = exampleLifecyclePayload(kind);
        const body = JSON.stringify(example);
        return [
          kind,
          {
            post: {
              operationId: `webhook_${kind.replace(/\./g, '_')}`,
              summary: `${kind}: ${EVENT_WHEN[kind]}`,
              description:
                `Opt-in: sent only to webhooks that chose ${kind} among their events (dashboard, Webhooks). ` +
                'The same event, with the same `event_id` as `id`, is in the event log (GET /events). ' +
                `Payload version 1: fields may be added to \`data\` without a new version; any other change is a new version, named in \`version\`. ${DELIVERY_RULES}`,
              tags: ['Webhooks'],
              security: [],
              parameters: HEADER_PARAMETERS(body, example.id as string),
              requestBody: { required: true, content: { 'application/json': { schema: components.convert(lifecycleEventSchema(kind), 'output'), example } } },
              responses: RESPONSES,
            },
          },
        ] as const;
      })
    : [];
  return Object.fromEntries([...contract, ...lifecycle]);
}
