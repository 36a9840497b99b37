import { decodePublicEvent } from '@spa/events';
import type { Logger } from '@spa/logger';
import { withRequestId } from '@spa/logger';
import { consumeDurable, EVENTS_STREAM, fromOtherDeployment, traceCarrierOfHeaders, workspaceEventsFilter, type JsMsg, type NatsConnection } from '@spa/nats';
import { inSpan, SpanKind } from '@spa/telemetry';
import type { LoggedEvent } from '../domain/payload.js';

/** Events handled at once, and the consumer's bound on those handed out and not acknowledged (as for terminal events). */
const PARALLEL = 128;
const MAX_ACK_PENDING = 1_000;
const RETRY_DELAY_MS = 1_000;

/**
 * Durable, explicitly acknowledged consumer of the deployment's public events (`events.<namespace>.>` on the
 * EVENTS stream, from the first start of the deployment on): each is delivered to the webhooks that chose its
 * kind. A message is acknowledged once its deliveries are stored (those sent at once: after their first
 * attempt); a failure is handed out again by JetStream, and handling an event twice creates nothing more (one
 * delivery per webhook and event id).
 */
export function consumePublicEvents(
  nc: NatsConnection,
  durable: string,
  namespace: string,
  handle: (event: LoggedEvent) => Promise<{ recorded: Promise<unknown> }>,
  logger: Logger,
): Promise<{ stop(): Promise<void> }> {
  const notRecorded = (err: unknown, msg: JsMsg) => logger.warn({ err, seq: msg.seq }, 'public event: not recorded; will be redelivered');
  return consumeDurable(
    nc,
    {
      stream: EVENTS_STREAM,
      durable,
      filterSubject: workspaceEventsFilter(namespace, '*'),
      startAt: 'new',
      ackWaitMs: 30_000,
      parallel: PARALLEL,
      prefetch: 2 * PARALLEL,
      maxAckPending: MAX_ACK_PENDING,
    },
    async (msg) => {
      if (fromOtherDeployment(msg, namespace)) return msg.ack();
      let event: LoggedEvent;
      try {
        event = decodePublicEvent(msg.data) as LoggedEvent;
      } catch (err) {
        logger.error({ err, seq: msg.seq }, 'public event: undecodable; dropped');
        msg.term();
        return;
      }
      const parent = traceCarrierOfHeaders(msg.headers);
      const { recorded } = await withRequestId(msg.headers?.get('x-request-id') || undefined, () =>
        inSpan('public event', { kind: SpanKind.CONSUMER, parent, attributes: { 'spa.event_kind': event.kind } }, () => handle(event)),
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
