import { AckPolicy, DeliverPolicy, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ensureStream, jetstream, type StreamSpec } from './index.js';

export type { JsMsg };

export interface DurableConsumerSpec {
  stream: StreamSpec;
  /** The durable consumer's name: one per deployment, shared by its replicas. */
  durable: string;
  filterSubject: string;
  /**
   * 'new': an event log read from the first start of the deployment on; an existing consumer is kept as
   * it is (its position is the point). 'all': every message kept (a work queue); the consumer is added,
   * or updated to this configuration.
   */
  startAt: 'new' | 'all';
  /** A message neither acknowledged nor reported in progress within this time is delivered again. */
  ackWaitMs: number;
  /** Messages delivered and not yet acknowledged, across every replica. */
  maxAckPending?: number;
  /** Messages handled at once by this process. */
  parallel: number;
  /** Messages fetched ahead of handling (default: `parallel`). */
  prefetch?: number;
}

/**
 * Consumes a durable JetStream consumer with up to `parallel` messages in hand at once. `handle` owns
 * the message's fate (ack, nak with its delay, term); one that throws is logged by `onError` and
 * delivered again after `retryDelayMs`. `stop` stops fetching and waits for the messages in hand.
 */
export async function consumeDurable(
  nc: NatsConnection,
  spec: DurableConsumerSpec,
  handle: (msg: JsMsg) => Promise<void>,
  onError: (err: unknown, msg: JsMsg) => void,
  retryDelayMs = 1_000,
): Promise<{ stop(): Promise<void> }> {
  await ensuredOnce(nc, spec.stream);
  const jsm = await jetstreamManager(nc);
  const config = {
    durable_name: spec.durable,
    filter_subject: spec.filterSubject,
    ack_policy: AckPolicy.Explicit,
    ack_wait: spec.ackWaitMs * 1_000_000,
    max_ack_pending: spec.maxAckPending ?? 1_000,
  };
  if (spec.startAt === 'all') await jsm.consumers.add(spec.stream.name, config);
  else if (!(await jsm.consumers.info(spec.stream.name, spec.durable).catch(() => null))) {
    await jsm.consumers.add(spec.stream.name, { ...config, deliver_policy: DeliverPolicy.New });
  }
  const consumer = await jetstream(nc).consumers.get(spec.stream.name, spec.durable);
  const messages = await consumer.consume({ max_messages: spec.prefetch ?? spec.parallel });
  const inHand = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const msg of messages) {
      while (inHand.size >= spec.parallel) await Promise.race(inHand);
      const task = handle(msg)
        .catch((err: unknown) => {
          onError(err, msg);
          msg.nak(retryDelayMs);
        })
        .finally(() => inHand.delete(task));
      inHand.add(task);
    }
    await Promise.all(inHand);
  })();
  return {
    stop: async () => {
      await messages.close();
      await loop;
    },
  };
}

/**
 * Each stream ensured once per connection: a process that opens many consumers of one stream (analytics:
 * one per result partition) would otherwise update the stream's configuration once per consumer.
 */
const ensured = new WeakMap<NatsConnection, Map<string, Promise<void>>>();
function ensuredOnce(nc: NatsConnection, stream: StreamSpec): Promise<void> {
  const streams = ensured.get(nc) ?? ensured.set(nc, new Map()).get(nc)!;
  const done = streams.get(stream.name) ?? ensureStream(nc, stream);
  streams.set(stream.name, done);
  done.catch(() => streams.delete(stream.name));
  return done;
}

/** Runs `work` while telling JetStream every third of the ack wait that the message is still in hand. */
export async function keepingInProgress<T>(msg: JsMsg, ackWaitMs: number, work: () => Promise<T>): Promise<T> {
  const heartbeat = setInterval(() => msg.working(), Math.max(ackWaitMs / 3, 500));
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}
