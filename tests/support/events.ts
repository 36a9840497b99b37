import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '@spa/nats';
import { TEST_INFRA, type Stack } from '@spa/testing';
import { verifySignature } from '@spa/webhook-signature';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** One webhook delivery as a receiver saw it. */
export interface Delivery {
  path: string;
  /** X-Service-Event-Id (the payload's `id`). */
  deliveryId: string;
  attempt: number;
  signature: string;
  raw: string;
  body: Record<string, any>;
}

/** A loopback webhook receiver that answers 200 and keeps every delivery, by path (one path per webhook). */
export async function startReceiver(): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      deliveries.push({
        path: req.url ?? '',
        deliveryId: String(req.headers['x-service-event-id'] ?? ''),
        attempt: Number(req.headers['x-service-attempt']),
        signature: String(req.headers['x-service-signature'] ?? ''),
        raw,
        body: JSON.parse(raw) as Record<string, any>,
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Whether the delivery is signed with `secret` (X-Service-Signature over its raw body). */
export function signedWith(d: Delivery, secret: string): boolean {
  return verifySignature(d.raw, d.signature, secret).valid;
}

/**
 * Checks webhook payloads against the OpenAPI document the gateway serves: each kind's request body schema in its
 * `webhooks` section (JSON Schema 2020-12), and no field in `data` that the schema does not name.
 */
export async function payloadChecker(stack: Stack): Promise<(kind: string, payload: unknown) => string[]> {
  const doc = (await stack.http('/api/v1/openapi.json')).json as {
    webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref?: string } } } } } }>;
    components: { schemas: Record<string, { properties?: Record<string, { $ref?: string; properties?: Record<string, unknown> }> }> };
  };
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const base = 'https://spa.example/openapi.json';
  ajv.addSchema({ $id: base, components: doc.components });
  const validators = new Map<string, ValidateFunction>();
  const resolve = (schema: { $ref?: string; properties?: Record<string, unknown> } | undefined) => (schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema);
  return (kind, payload) => {
    const hook = doc.webhooks[kind];
    if (!hook) return [`the document has no webhook ${kind}`];
    const ref = hook.post.requestBody.content['application/json'].schema.$ref!;
    let validate = validators.get(kind);
    if (!validate) validators.set(kind, (validate = ajv.compile({ $ref: `${base}${ref}` })));
    const problems = validate(payload) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    const envelope = resolve(hook.post.requestBody.content['application/json'].schema);
    const dataSchema = resolve(envelope?.properties?.data as { $ref?: string } | undefined);
    const data = (payload as { data?: Record<string, unknown> }).data ?? {};
    for (const key of Object.keys(data)) if (!dataSchema?.properties?.[key]) problems.push(`data.${key} is not in the document`);
    return problems;
  };
}

/** Removes the stack's events from the EVENTS stream and its webhooks service's consumer of them. */
export async function dropStackEvents(namespace: string): Promise<void> {
  const nc = await connectNats(TEST_INFRA.natsUrl, 'events-cleanup');
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.purge('EVENTS', { filter: `events.${namespace}.>` }).catch(() => undefined);
    await jsm.consumers.delete('EVENTS', `webhooks-events-${namespace}`).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

/** Polls `read` until `done` holds, failing with the last value after `ms`. */
export async function eventually<T>(read: () => Promise<T> | T, done: (v: T) => boolean, ms = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${JSON.stringify(v).slice(0, 2_000)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
