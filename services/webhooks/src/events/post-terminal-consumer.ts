import { AckPolicy, DeliverPolicy, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import type { Logger } from '@spa/logger';
import { withRequestId } from '@spa/logger';
import { ensureStream, jetstream, POSTS_STREAM, traceCarrierOfHeaders, type NatsConnection } from '@spa/nats';
import { inSpan, SpanKind } from '@spa/telemetry';
import type { PostTerminalEvent } from '../domain/payload.js';

export const POST_TERMINAL_SUBJECT = 'posts.post.terminal';
/** Events handled at once (each is a few store writes). */
const PARALLEL = 32;

export function decodePostTerminal(msg: Pick<JsMsg, 'data' | 'headers' | 'seq'>): PostTerminalEvent {
  const e = PostTerminal.decode(msg.data);
  return {
    // The publisher's Nats-Msg-Id names the event; without one, its place in the stream does.
    sourceKey: msg.headers?.get('Nats-Msg-Id') || `${POSTS_STREAM.name}:${msg.seq}`,
    workspaceId: e.workspaceId,
    postId: e.postId,
    status: e.status,
    occurredAt: new Date(e.occurredAt),
    dryRun: e.dryRun ?? false,
    platforms: e.platforms.map((p) => ({ platform: p.platform, platformStatus: p.platformStatus, platformPostId: p.platformPostId, platformError: p.platformError })),
  };
}

/**
 * Durable, explicitly acknowledged consumer of posts.post.terminal. A message is acknowledged only
 * once its deliveries are stored; a failure is redelivered by JetStream, and handling an event
 * twice creates nothing more (unique delivery per webhook and event).
 */
export class PostTerminalConsumer {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly durableName: string,
    private readonly handle: (event: PostTerminalEvent) => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await ensureStream(this.nc, POSTS_STREAM);
    const jsm = await jetstreamManager(this.nc);
    try {
      await jsm.consumers.info(POSTS_STREAM.name, this.durableName);
    } catch {
      // First start of this deployment: take events from now on (the publisher emits them to us from here).
      await jsm.consumers.add(POSTS_STREAM.name, {
        durable_name: this.durableName,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.New,
        filter_subject: POST_TERMINAL_SUBJECT,
        ack_wait: 30_000_000_000,
        max_ack_pending: 1_000,
      });
    }
    const consumer = await jetstream(this.nc).consumers.get(POSTS_STREAM.name, this.durableName);
    this.messages = await consumer.consume({ max_messages: 256 });
    this.loop = this.run(this.messages);
  }

  async stop(): Promise<void> {
    await this.messages?.close();
    await this.loop;
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    const running = new Set<Promise<void>>();
    for await (const msg of messages) {
      const task = this.process(msg).finally(() => running.delete(task));
      running.add(task);
      if (running.size >= PARALLEL) await Promise.race(running);
    }
    await Promise.all(running);
  }

  private async process(msg: JsMsg): Promise<void> {
    let event: PostTerminalEvent;
    try {
      event = decodePostTerminal(msg);
    } catch (err) {
      this.logger.error({ err, seq: msg.seq }, 'post terminal event: undecodable; dropped');
      msg.term();
      return;
    }
    try {
      const parent = traceCarrierOfHeaders(msg.headers);
      await withRequestId(msg.headers?.get('x-request-id') || undefined, () =>
        inSpan('post terminal event', { kind: SpanKind.CONSUMER, parent, attributes: { 'spa.post_id': event.postId } }, () => this.handle(event)),
      );
      msg.ack();
    } catch (err) {
      this.logger.warn({ err, source: event.sourceKey }, 'post terminal event: not recorded; will be redelivered');
      msg.nak(1_000);
    }
  }
}
