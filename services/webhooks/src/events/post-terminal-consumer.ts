import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import type { Logger } from '@spa/logger';
import { withRequestId } from '@spa/logger';
import { consumeDurable, fromOtherDeployment, POSTS_STREAM, traceCarrierOfHeaders, type JsMsg, type NatsConnection } from '@spa/nats';
import { inSpan, SpanKind } from '@spa/telemetry';
import { eventIdOf } from '@spa/events';
import { eventKindOf, type PostTerminalEvent } from '../domain/payload.js';

/**
 * Events handled at once. Each is a `subscribers` read and its deliveries' insert, both shared with the
 * events handled at the same time (one find, one insert per batch), so more at once means fewer, larger
 * store commands; JetStream's max_ack_pending stays above it. Events whose first attempts are out wait
 * for their ack outside this bound (`EVENTS_WAITING_FOR_ATTEMPTS`).
 */
const PARALLEL = 256;
/** JetStream's bound on the events handed out and not yet acknowledged (the consumer's max_ack_pending). */
const MAX_ACK_PENDING = 1_000;
/**
 * Events whose first attempts are out (and so not yet acknowledged) at once, at most: half of
 * max_ack_pending, so slow receivers holding their attempts never stop JetStream handing out events.
 */
export const EVENTS_WAITING_FOR_ATTEMPTS = MAX_ACK_PENDING / 2;
/** How soon JetStream hands an event that could not be recorded to a consumer again. */
const RETRY_DELAY_MS = 1_000;

function decodePostTerminal(msg: Pick<JsMsg, 'data' | 'headers' | 'seq'>, namespace: string): PostTerminalEvent {
  const e = PostTerminal.decode(msg.data);
  // The publisher's Nats-Msg-Id names the event; without one, its place in the stream does.
  const sourceKey = msg.headers?.get('Nats-Msg-Id') || `${POSTS_STREAM.name}:${msg.seq}`;
  const kind = eventKindOf(e.status);
  return {
    sourceKey,
    // The id the posts service gave the event in the event log (derived from the same message id).
    eventId: kind ? eventIdOf(namespace, sourceKey, kind) : undefined,
    workspaceId: e.workspaceId,
    postId: e.postId,
    status: e.status,
    occurredAt: new Date(e.occurredAt),
    dryRun: e.dryRun ?? false,
    platforms: e.platforms.map((p) => ({ platform: p.platform, platformStatus: p.platformStatus, platformPostId: p.platformPostId, platformError: p.platformError })),
  };
}

/**
 * Durable, explicitly acknowledged consumer of posts.post.terminal (from the first start of the
 * deployment on). A message is acknowledged only once its deliveries are stored (`recorded`: those
 * sent at once, after their first attempt, without holding a place among the events handled at once); a
 * failure is redelivered by JetStream, and handling an event twice creates nothing more (one delivery
 * per webhook and event). Events of another deployment (`namespace`) sharing the NATS server are skipped.
 */
export function consumePostTerminal(
  nc: NatsConnection,
  durable: string,
  namespace: string,
  handle: (event: PostTerminalEvent) => Promise<{ recorded: Promise<unknown> }>,
  logger: Logger,
): Promise<{ stop(): Promise<void> }> {
  const notRecorded = (err: unknown, msg: JsMsg) => logger.warn({ err, seq: msg.seq }, 'post terminal event: not recorded; will be redelivered');
  return consumeDurable(
    nc,
    { stream: POSTS_STREAM, durable, filterSubject: 'posts.post.terminal', startAt: 'new', ackWaitMs: 30_000, parallel: PARALLEL, prefetch: 2 * PARALLEL, maxAckPending: MAX_ACK_PENDING },
    async (msg) => {
      if (fromOtherDeployment(msg, namespace)) return msg.ack();
      let event: PostTerminalEvent;
      try {
        event = decodePostTerminal(msg, namespace);
      } catch (err) {
        logger.error({ err, seq: msg.seq }, 'post terminal event: undecodable; dropped');
        msg.term();
        return;
      }
      const parent = traceCarrierOfHeaders(msg.headers);
      const { recorded } = await withRequestId(msg.headers?.get('x-request-id') || undefined, () =>
        inSpan('post terminal event', { kind: SpanKind.CONSUMER, parent, attributes: { 'spa.post_id': event.postId } }, () => handle(event)),
      );
      recorded.then(
        () => msg.ack(),
        (err: unknown) => {
          notRecorded(err, msg);
          msg.nak(RETRY_DELAY_MS);
        },
      );
    },
    notRecorded,
    RETRY_DELAY_MS,
  );
}
