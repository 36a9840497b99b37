import { TERMINAL_EVENT_KINDS, type EventKind as LoggedEventKind } from '@spa/vocabulary';

/** What a webhook receives unless it chooses: the contract's terminal post events. */
export const POST_EVENTS = TERMINAL_EVENT_KINDS;
export type PostEventKind = (typeof POST_EVENTS)[number];
/** Event kinds a webhook can subscribe to: every kind of the event log (webhook.test is sent on demand to any webhook). */
export type SubscribableKind = LoggedEventKind;
export type EventKind = SubscribableKind | 'webhook.test';

export const MAX_WEBHOOKS_PER_WORKSPACE = 5;
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface Webhook {
  id: number;
  workspaceId: number;
  url: string;
  /** The kinds it receives (the terminal post events unless it chose others). */
  events: SubscribableKind[];
  enabled: boolean;
  disabledReason?: string | undefined;
  /** When it was created or last re-enabled: the auto-disable count starts here. */
  enabledAt: Date;
  /** Encrypted secrets (SecretBox). */
  secret: string;
  previousSecret?: string | undefined;
  previousSecretExpiresAt?: Date | undefined;
  createdAt: Date;
}

export type DeliveryStatus = 'scheduled' | 'succeeded' | 'failed' | 'canceled';

export interface Delivery {
  /** The payload id (UUID): the same on every attempt and manual redelivery. */
  id: string;
  webhookId: number;
  workspaceId: number;
  event: EventKind;
  /** What produced it (the NATS message id of the source event); unique per webhook. */
  sourceKey: string;
  /** The exact JSON body sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  /** Attempts made (claimed) so far. */
  attempts: number;
  /** Attempts allowed in all: 7, raised by one on each manual redelivery. */
  attemptLimit: number;
  nextAttemptAt?: Date | undefined;
  lastError?: string | undefined;
  lastStatusCode?: number | undefined;
  createdAt: Date;
  finishedAt?: Date | undefined;
  /** The request the event came from (request id and trace context), resumed by each attempt; opaque here. */
  origin?: { requestId?: string | undefined; traceparent?: string | undefined; tracestate?: string | undefined } | undefined;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode?: number | undefined;
  error?: string | undefined;
  durationMs: number;
}

/**
 * The claim of one attempt, inserted before it is sent (the unique id makes the claim exclusive). Its
 * outcome is recorded on the delivery (status, last error and status code), in the write that finishes
 * the delivery or schedules its retry.
 */
export interface Attempt {
  deliveryId: string;
  attempt: number;
  claimedAt: Date;
  claimedBy: string;
}
