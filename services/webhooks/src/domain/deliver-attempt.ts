import { signatureHeader } from '@spa/webhook-signature';
import { disableWebhook, signingSecrets } from './manage-webhooks.js';
import type { AttemptOutcome, Delivery, Webhook } from './model.js';
import type { DeliveryPatch, WebhooksDeps } from './ports.js';
import { autoDisableReason } from './auto-disable.js';
import { ATTEMPT_TIMEOUT_MS, CLAIM_LEASE_MS, nextAttemptAt } from './schedule.js';
import { checkUrl, literalAddress, pickAddress } from './url-policy.js';

/** Recorded on a delivery whose attempt was claimed by a dispatcher that stopped before recording its outcome. */
const NO_OUTCOME = 'no outcome recorded: the dispatcher stopped during the attempt';

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
    return record(deps, webhook, delivery, afterAttempt(deps, delivery, delivery.attempts, deps.clock.now(), { ok: false, error: NO_OUTCOME, durationMs: 0 }));
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
  const outcome = await send(deps, webhook, delivery, n);
  await moved;
  await record(deps, webhook, delivery, afterAttempt(deps, delivery, n, startedAt, outcome));
}

/**
 * Sends the first attempt of a new delivery, from its event, then stores the delivery already holding
 * the outcome (finished, or attempt 2 scheduled): a claim and an insert, the fewest writes that keep
 * every attempt claimed before it is sent (on the local store an update is a read and a write). Its event
 * is acknowledged only once this resolves, so a dispatcher killed between the claim and the insert
 * leaves the event to be handled again; the delivery's id is derived from the webhook and the event
 * (`deliveryIdOf`), so that handling finds the claim and stores the delivery as one whose dispatcher
 * stopped during attempt 1: attempt 2 at its retry time, and no attempt number twice. Resolves true
 * when it stored the delivery, false when the delivery existed already (the event was handled before).
 */
export async function sendFirstAttempt(deps: WebhooksDeps, delivery: Delivery, webhook: Webhook): Promise<boolean> {
  const startedAt = deps.clock.now();
  if (!(await deps.store.claimAttempt({ deliveryId: delivery.id, attempt: 1, claimedAt: startedAt, claimedBy: deps.instanceId }))) {
    const claim = await deps.store.getAttempt(delivery.id, 1);
    const stopped = afterAttempt(deps, delivery, 1, claim?.claimedAt ?? startedAt, { ok: false, error: NO_OUTCOME, durationMs: 0 });
    return deps.store.insertDelivery({ ...delivery, attempts: 1, ...stopped });
  }
  const outcome = await send(deps, webhook, delivery, 1);
  const outcomeRecord = afterAttempt(deps, delivery, 1, startedAt, outcome);
  if (await deps.store.insertDelivery({ ...delivery, attempts: 1, ...outcomeRecord })) {
    if (outcomeRecord.status === 'failed') await disableIfFailing(deps, webhook, delivery);
    return true;
  }
  // Stored meanwhile by another handling of the event, which found this claim: the outcome is recorded on it.
  await record(deps, webhook, delivery, { attempts: 1, ...outcomeRecord });
  return false;
}

/**
 * The delivery's record after attempt n (made at `startedAt`) ended with `outcome`: finished (it
 * succeeded, or it was the last), or the next attempt scheduled.
 */
function afterAttempt(deps: WebhooksDeps, delivery: Delivery, n: number, startedAt: Date, outcome: AttemptOutcome): DeliveryPatch {
  const result = { lastError: outcome.ok ? undefined : outcome.error, lastStatusCode: outcome.statusCode };
  if (!outcome.ok && n < delivery.attemptLimit) return { ...result, nextAttemptAt: retryTime(delivery, n, startedAt) };
  return { ...result, status: outcome.ok ? 'succeeded' : 'failed', nextAttemptAt: undefined, finishedAt: deps.clock.now() };
}

/** Writes the record of an attempt on its delivery; a delivery that failed for good may disable its webhook. */
async function record(deps: WebhooksDeps, webhook: Webhook, delivery: Delivery, patch: DeliveryPatch): Promise<void> {
  await deps.store.updateDelivery(delivery.id, patch);
  if (patch.status === 'failed') await disableIfFailing(deps, webhook, delivery);
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

/** After a delivery failed for good: the webhook is disabled when its recent results say so (never for a test event). */
async function disableIfFailing(deps: WebhooksDeps, webhook: Webhook, delivery: Delivery): Promise<void> {
  if (delivery.event === 'webhook.test') return;
  const reason = autoDisableReason(await deps.store.recentResults(webhook.id, webhook.enabledAt, 10));
  if (reason && webhook.enabled) {
    await disableWebhook(deps, webhook.id, undefined, reason);
    deps.observer?.disabled();
  }
}

/** Sends attempt n (`post`) and counts its outcome in the metrics. */
async function send(deps: WebhooksDeps, webhook: Webhook, delivery: Delivery, n: number): Promise<AttemptOutcome> {
  const outcome = await post(deps, webhook, delivery, n);
  deps.observer?.attempted(outcome.ok ? 'delivered' : /timed? ?out|timeout/i.test(outcome.error ?? '') ? 'timeout' : 'failed');
  return outcome;
}

/**
 * Resolves the host (once per attempt), checks the address and sends to exactly that address, signed
 * afresh. The 5 s budget covers resolving, connecting and the answer (not the store writes before).
 */
async function post(deps: WebhooksDeps, webhook: Webhook, delivery: Delivery, n: number): Promise<AttemptOutcome> {
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
