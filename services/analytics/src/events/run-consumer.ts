import type { Consumer, JsMsg } from '@nats-io/jetstream';
import type { Logger } from '@spa/logger';

/**
 * Runs a JetStream consumer with up to `parallel` messages at once: a message is acknowledged when
 * `handle` resolves and redelivered after a second when it throws.
 */
export async function runConsumer(consumer: Consumer, parallel: number, logger: Logger, handle: (msg: JsMsg) => Promise<void>): Promise<{ stop(): Promise<void> }> {
  const messages = await consumer.consume({ max_messages: parallel });
  const running = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const msg of messages) {
      const task = handle(msg)
        .then(() => msg.ack())
        .catch((err: unknown) => {
          logger.warn({ err, seq: msg.seq, subject: msg.subject }, 'event not handled; will be redelivered');
          msg.nak(1_000);
        })
        .finally(() => running.delete(task));
      running.add(task);
      if (running.size >= parallel) await Promise.race(running);
    }
    await Promise.all(running);
  })();
  return {
    stop: async () => {
      await messages.close();
      await loop;
    },
  };
}
