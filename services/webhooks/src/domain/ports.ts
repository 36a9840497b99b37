import type { Attempt, AttemptOutcome, Delivery, DeliveryStatus, Webhook } from './model.js';

export interface Clock {
  now(): Date;
}

/** What may change on a stored delivery (undefined fields are removed). */
export type DeliveryPatch = Partial<Omit<Delivery, 'id' | 'webhookId' | 'workspaceId'>>;

export interface WebhooksStore {
  nextWebhookId(): Promise<number>;
  /** Inserts into a numbered slot of the workspace (1..5); false when that slot is taken. */
  insertWebhook(webhook: Webhook, slot: number): Promise<boolean>;
  getWebhook(id: number): Promise<Webhook | null>;
  listWebhooks(workspaceId: number): Promise<Webhook[]>;
  updateWebhook(id: number, patch: Partial<Omit<Webhook, 'id' | 'workspaceId' | 'createdAt'>>): Promise<Webhook | null>;
  /** Deletes the webhook (its slot is free again), then its deliveries and their attempts; false when it was gone already. */
  deleteWebhook(id: number): Promise<boolean>;
  /** Enabled webhooks of the workspace that subscribe to the event. */
  subscribers(workspaceId: number, event: string): Promise<Webhook[]>;

  /** False when the webhook already has a delivery for that source (the event was handled before). */
  insertDelivery(delivery: Delivery): Promise<boolean>;
  getDelivery(id: string): Promise<Delivery | null>;
  listDeliveries(webhookId: number, limit: number): Promise<Delivery[]>;
  /** Scheduled deliveries due at `now`, oldest first, leaving out the given webhooks. */
  dueDeliveries(now: Date, limit: number, excludeWebhookIds: number[]): Promise<Delivery[]>;
  updateDelivery(id: string, patch: DeliveryPatch): Promise<void>;
  /** Statuses of the webhook's finished deliveries (succeeded or failed) since `since`, newest first. */
  recentResults(webhookId: number, since: Date, limit: number): Promise<DeliveryStatus[]>;

  /** Claims an attempt by inserting it; false when it was claimed already. */
  claimAttempt(attempt: Attempt): Promise<boolean>;
  getAttempt(deliveryId: string, attempt: number): Promise<Attempt | null>;
}

/**
 * Starts first attempts as an event's deliveries are recorded (the dispatcher): a delivery with room
 * to send it now is sent at once and stored with its outcome (`sendFirstAttempt`); one without is stored
 * due and waits for room, or for a pass.
 */
export interface FirstAttempts {
  /**
   * Sends a new delivery's first attempt now and then stores the delivery: null when there is no room
   * now; else resolves once it is stored (false: it existed already) and rejects when it could not be.
   */
  sendFirst(delivery: Delivery, webhook: Webhook): Promise<boolean> | null;
  /** A delivery stored due: started when room frees (or found by a pass). */
  offer(delivery: Delivery, webhook: Webhook): void;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS. Throws an error with code ENOTFOUND (or ENODATA) when the name does not exist. */
export interface Resolver {
  resolve(hostname: string): Promise<ResolvedAddress[]>;
}

export interface OutboundRequest {
  url: URL;
  /** The checked address to connect to (the URL's host is only used for Host and TLS SNI). */
  address: ResolvedAddress;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** Sends one POST; never follows redirects; resolves with the outcome (never throws). */
export interface HttpSender {
  post(request: OutboundRequest): Promise<AttemptOutcome>;
}

/** Encrypts secrets at rest. */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface WebhooksDeps {
  store: WebhooksStore;
  clock: Clock;
  resolver: Resolver;
  sender: HttpSender;
  secrets: SecretBox;
  newId(): string;
  newSecret(): string;
  /** Allows plain http and private addresses (local development and tests only). */
  allowPrivate: boolean;
  /** Names this process in attempt claims. */
  instanceId: string;
  /** Told of every attempt's outcome and every automatic disable (metrics); optional. */
  observer?: { attempted(outcome: 'delivered' | 'failed' | 'timeout'): void; disabled(): void };
}
