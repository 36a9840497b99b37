import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createSecretBox, newWebhookSecret } from '../../services/webhooks/src/crypto/secret-box.js';
import { MongoWebhooksStore } from '../../services/webhooks/src/data/mongo-store.js';
import { Dispatcher, type DispatcherLimits } from '../../services/webhooks/src/delivery/dispatcher.js';
import { httpSender } from '../../services/webhooks/src/delivery/http-sender.js';
import type { PostTerminalEvent } from '../../services/webhooks/src/domain/payload.js';
import type { FirstAttempts, OutboundRequest, ResolvedAddress, WebhooksDeps } from '../../services/webhooks/src/domain/ports.js';
import { recordPostTerminal } from '../../services/webhooks/src/domain/record-event.js';

export const T0 = Date.parse('2026-03-01T00:00:00.000Z');
export const S = 1_000;

export interface Hit {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * The dispatcher's tests' world: the real store on a fresh database, a real HTTP receiver that records
 * every request and answers `answer`, an injected clock the tests move (the dispatcher never waits on
 * real timers), and a fresh dispatcher (64 attempts at once) before each test. Call once per test file,
 * at the top level; the fields are read as the tests run.
 */
export function dispatcherHarness() {
  const clock = {
    t: T0,
    now: () => new Date(clock.t),
    set(ms: number) {
      clock.t = ms;
    },
  };
  let connection: Connection;
  let receiver: http.Server;
  let nextPost = 1;
  const h = {
    clock,
    store: undefined as unknown as MongoWebhooksStore,
    receiverUrl: '',
    /** The receiver's answer (status code) for the next requests. */
    answer: 500,
    /** Every request the receiver saw, with the injected clock's time. */
    hits: [] as Hit[],
    /** Every request handed to the sender (also those it refused to connect for). */
    sent: [] as OutboundRequest[],
    resolverAnswers: {} as Record<string, ResolvedAddress[]>,
    nextWorkspace: 700_000 + Math.floor(Math.random() * 99_999),
    deps: undefined as unknown as WebhooksDeps,
    dispatcher: undefined as unknown as Dispatcher,

    makeDeps(allowPrivate: boolean): WebhooksDeps {
      return {
        store: h.store,
        clock,
        resolver: {
          async resolve(host) {
            const found = h.resolverAnswers[host];
            if (!found) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
            return found;
          },
        },
        sender: {
          post: (req) => {
            h.sent.push(req);
            return httpSender.post(req);
          },
        },
        secrets: createSecretBox('test-secrets-key-of-at-least-32-characters'),
        newId: randomUUID,
        newSecret: newWebhookSecret,
        allowPrivate,
        instanceId: 'test',
      };
    },

    newDispatcher(deps: WebhooksDeps, limits: DispatcherLimits): Dispatcher {
      return new Dispatcher(deps, limits, createLogger('dispatcher-test', 'silent'));
    },

    /** Makes the dispatcher look for due work at the clock's time and waits until it is done. */
    async runAt(ms: number): Promise<void> {
      clock.set(ms);
      await h.dispatcher.pass();
      await h.dispatcher.settle();
    },

    /** Handles the event as the consumer does and waits until its deliveries are stored: how many were created. */
    async record(event: PostTerminalEvent, first?: FirstAttempts, deps?: WebhooksDeps): Promise<number> {
      return (await recordPostTerminal(deps ?? h.deps, event, first)).recorded;
    },

    terminal(workspaceId: number, status = 'failed'): PostTerminalEvent {
      return {
        sourceKey: `test-${randomUUID()}`,
        workspaceId,
        postId: nextPost++,
        status,
        occurredAt: clock.now(),
        platforms: [{ platform: 'bluesky', platformStatus: 'error', platformPostId: '', platformError: 'rate limited' }],
      };
    },
  };

  beforeAll(async () => {
    connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_webhooks_${randomBytes(4).toString('hex')}`);
    h.store = new MongoWebhooksStore(connection);
    await syncIndexes(connection);
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        h.hits.push({ at: clock.t, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(h.answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    h.receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });
  beforeEach(async () => {
    await h.store.models.Delivery.deleteMany({});
    h.hits = [];
    h.sent.length = 0;
    h.answer = 500;
    h.resolverAnswers = {};
    clock.set(T0);
    h.deps = h.makeDeps(true);
    h.dispatcher = h.newDispatcher(h.deps, { concurrency: 64, perWebhook: 64 });
  });
  return h;
}
