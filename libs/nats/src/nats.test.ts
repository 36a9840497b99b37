import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { withRequestId } from '@spa/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, ensureStream, jetstream, publishEvent, type NatsConnection } from './index.js';

let nc: NatsConnection;
const suffix = randomBytes(4).toString('hex');
const stream = `T_EVENTS_${suffix}`;
const subject = `t${suffix}.thing.happened`;

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'nats-test');
});
afterAll(async () => {
  await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
  await nc.drain();
});

describe('NATS JetStream helpers (real server)', () => {
  it('creates a stream idempotently', async () => {
    await ensureStream(nc, { name: stream, subjects: [`t${suffix}.>`] });
    await ensureStream(nc, { name: stream, subjects: [`t${suffix}.>`] });
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    expect(info.config.subjects).toEqual([`t${suffix}.>`]);
  });

  it('drops a republished event with the same Nats-Msg-Id and carries the request id', async () => {
    const js = jetstream(nc);
    await withRequestId('req-7', async () => {
      await publishEvent(js, subject, new TextEncoder().encode('one'), 'evt-1');
      await publishEvent(js, subject, new TextEncoder().encode('one again'), 'evt-1');
      await publishEvent(js, subject, new TextEncoder().encode('two'), 'evt-2');
    });
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    expect(info.state.messages).toBe(2);
    const first = await js.streams.get(stream).then((s) => s.getMessage({ seq: 1 }));
    expect(first?.string()).toBe('one');
    expect(first?.header.get('x-request-id')).toBe('req-7');
  });
});
