import { signatureHeader } from '@spa/webhook-signature';
import { disableWebhook, signingSecrets } from './manage-webhooks.js';
import type { AttemptOutcome, Delivery, Webhook } from './model.js';
import type { WebhooksDeps } from './ports.js';
import { autoDisableReason } from './auto-disable.js';
import { ATTEMPT_TIMEOUT_MS, CLAIM_LEASE_MS, nextAttemptAt } from './schedule.js';
import { checkUrl, literalAddress, pickAddress } from './url-policy.js';

/**
 * Makes the next attempt of a due delivery, at most once across all dispatchers:
 *
 * 1. The last allowed attempt is used up but the delivery was left scheduled (its dispatcher died
 *    before recording the outcome): the delivery is finished as failed, with no outcome.
 * 2. The attempt is claimed by inserting `<delivery>:<n>`; the unique id lets one dispatcher win.
 * 3. As it sends, the delivery moves to attempt n with its next attempt already scheduled, so a
 *    dispatcher killed mid-attempt loses no retry and never repeats an attempt number (killed before the
 *    move landed, the claim stands, and the next dispatcher moves the delivery on once its lease is over).
 * 4. The outcome is recorded on the delivery, in the write that finishes it or schedules its retry.
 *
 * `known` is the webhook as just read to record the delivery, or its read just started for the attempts
 * of one webhook started together; otherwise it is read here.
 */
export async function deliverAttempt(deps: WebhooksDeps, delivery: Delivery, known?: Webhook | Promise<Webhook | null>): Promise<void> {
  const webhook = known ? await known : await deps.store.getWebhook(delivery.webhookId);
  if (!webhook || (!webhook.enabled && delivery.event !== 'webhook.test')) {
    await deps.store.updateDelivery(delivery.id, { status: 'canceled', nextAttemptAt: undefined, finishedAt: deps.clock.now(), lastError: 'webhook disabled' });
    return;
  }
  if (delivery.attempts >= delivery.attemptLimit) {
    return finish(deps, webhook, delivery, { ok: false, error: 'no outcome recorded: the dispatcher stopped during the attempt', durationMs: 0 });
  }

  const n = delivery.attempts + 1;
  const startedAt = deps.clock.now();
  if (!(await deps.store.claimAttempt({ deliveryId: delivery.id, attempt: n, claimedAt: startedAt, claimedBy: deps.instanceId }))) {
    return catchUpLostClaim(deps, delivery, n);
  }
  // Sent while the delivery moves on: the claim already makes attempt n this dispatcher's alone, and a
  // dispatcher killed before the move lands leaves the claim, which the next one catches up from once the
  // lease is over (catchUpLostClaim). Awaited before the outcome's write, so that lands after it.
  const moved = deps.store.updateDelivery(delivery.id, { attempts: n, nextAttemptAt: retryTime(delivery, n, startedAt) });
  moved.catch(() => undefined); // awaited below; never unhandled while the request is out
  await sendAndRecord(deps, webhook, { ...delivery, attempts: n }, startedAt, moved);
}

/**
 * Stores a new delivery holding its first attempt, when its dispatcher has room to send it at once:
 * attempt 1 is claimed (inserted first, so every attempt that can be sent has its claim), then the
 * delivery is inserted already moved on to it (`attempts: 1`, attempt 2 scheduled as the move would),
 * which saves the move of step 3: on the local store an update is a read and a write. A dispatcher
 * killed before the outcome is recorded leaves the delivery to another, which makes attempt 2 at that
 * time. Null when the delivery existed already (the event was handled before): the claim of the new id
 * is taken back.
 */
export async function storeHoldingFirstAttempt(deps: WebhooksDeps, delivery: Delivery): Promise<Delivery | null> {
  const held: Delivery = { ...delivery, attempts: 1, nextAttemptAt: retryTime(delivery, 1, delivery.createdAt) };
  if (!(await deps.store.claimAttempt({ deliveryId: held.id, attempt: 1, claimedAt: held.createdAt, claimedBy: deps.instanceId }))) {
    throw new Error(`attempt 1 of the new delivery ${held.id} was claimed already`); // a fresh id: never
  }
  if (await deps.store.insertDelivery(held)) return held;
  await deps.store.dropClaim(held.id, 1);
  return null;
}

/**
 * Sends the first attempt of a delivery stored holding it (`storeHoldingFirstAttempt`). Should storing it
 * have taken so long that the attempt could still run when attempt 2 is due, it is left to attempt 2.
 */
export async function deliverFirstAttempt(deps: WebhooksDeps, delivery: Delivery, webhook: Webhook): Promise<void> {
  const startedAt = deps.clock.now();
  if (startedAt.getTime() + ATTEMPT_TIMEOUT_MS >= (delivery.nextAttemptAt?.getTime() ?? 0)) return;
  await sendAndRecord(deps, webhook, delivery, startedAt);
}

/**
 * Sends the attempt the delivery holds (`delivery.attempts`) and records its outcome on the delivery
 * once `moved` (the delivery's move to this attempt) has landed: finished, or its retry scheduled.
 */
async function sendAndRecord(deps: WebhooksDeps, webhook: Webhook, delivery: Delivery, startedAt: Date, moved?: Promise<void>): Promise<void> {
  const n = delivery.attempts;
  const outcome = await send(deps, webhook, delivery, n);
  await moved;
  deps.observer?.attempted(outcome.ok ? 'delivered' : /timed? ?out|timeout/i.test(outcome.error ?? '') ? 'timeout' : 'failed');
  if (outcome.ok || n >= delivery.attemptLimit) await finish(deps, webhook, delivery, outcome);
  else await deps.store.updateDelivery(delivery.id, { nextAttemptAt: retryTime(delivery, n, startedAt), lastError: outcome.error, lastStatusCode: outcome.statusCode });
}

/** When the delivery is looked at next if attempt n fails or its dispatcher dies: the retry, or (after the last attempt) the lease. */
function retryTime(delivery: Delivery, n: number, at: Date): Date {
  return nextAttemptAt(n, at, delivery.attemptLimit) ?? new Date(at.getTime() + CLAIM_LEASE_MS);
}

/** Attempt n was claimed but the delivery never moved on: its claimer died in between. Move it on once the lease has run out. */
async function catchUpLostClaim(deps: WebhooksDeps, delivery: Delivery, n: number): Promise<void> {
  const claim = await deps.store.getAttempt(delivery.id, n);
  if (!claim || deps.clock.now().getTime() - claim.claimedAt.getTime() < CLAIM_LEASE_MS) return;
  await deps.store.updateDelivery(delivery.id, { attempts: n, nextAttemptAt: retryTime(delivery, n, claim.claimedAt) });
}

async function finish(deps: WebhooksDeps, webhook: Webhook, delivery: Delivery, outcome: AttemptOutcome): Promise<void> {
  await deps.store.updateDelivery(delivery.id, {
    status: outcome.ok ? 'succeeded' : 'failed',
    nextAttemptAt: undefined,
    finishedAt: deps.clock.now(),
    lastError: outcome.ok ? undefined : outcome.error,
    lastStatusCode: outcome.statusCode,
  });
  if (outcome.ok || delivery.event === 'webhook.test') return;
  const reason = autoDisableReason(await deps.store.recentResults(webhook.id, webhook.enabledAt, 10));
  if (reason && webhook.enabled) {
    await disableWebhook(deps, webhook.id, undefined, reason);
    deps.observer?.disabled();
  }
}

/**
 * Resolves the host (once per attempt), checks the address and sends to exactly that address, signed
 * afresh. The 5 s budget covers resolving, connecting and the answer (not the store writes before).
 */
async function send(deps: WebhooksDeps, webhook: Webhook, delivery: Delivery, n: number): Promise<AttemptOutcome> {
  const startedAt = deps.clock.now();
  const failed = (error: string): AttemptOutcome => ({ ok: false, error, durationMs: deps.clock.now().getTime() - startedAt.getTime() });
  const checked = checkUrl(webhook.url, deps.allowPrivate);
  if ('problem' in checked) return failed(checked.problem);
  let addresses = [literalAddress(checked.url)].filter((a) => a !== undefined);
  if (!addresses.length) {
    try {
      addresses = await deps.resolver.resolve(checked.url.hostname);
    } catch (err) {
      return failed(`could not resolve ${checked.url.hostname}: ${(err as { code?: string }).code ?? String(err)}`);
    }
  }
  const picked = pickAddress(addresses, deps.allowPrivate);
  if ('problem' in picked) return failed(picked.problem);
  const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
  return deps.sender.post({
    url: checked.url,
    address: picked.address,
    body: delivery.payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'spa-webhooks/1',
      'x-service-signature': signatureHeader(signingSecrets(deps, webhook), timestamp, delivery.payload),
      'x-service-event-id': delivery.id,
      'x-service-attempt': String(n),
    },
    timeoutMs: Math.max(1, ATTEMPT_TIMEOUT_MS - (deps.clock.now().getTime() - startedAt.getTime())),
  });
}
