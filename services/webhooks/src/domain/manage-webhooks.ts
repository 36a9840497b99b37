import { AppError, invalidParameters, notFound } from '@spa/errors';
import { EVENT_KINDS } from '@spa/vocabulary';
import { MAX_WEBHOOKS_PER_WORKSPACE, POST_EVENTS, ROTATION_OVERLAP_MS, type SubscribableKind, type Webhook } from './model.js';
import type { WebhooksDeps } from './ports.js';
import { checkUrl, literalAddress, pickAddress } from './url-policy.js';

export interface NewWebhook {
  workspaceId: number;
  url: string;
  /** Empty: the terminal post events. */
  events: string[];
}

/** The kinds a webhook asks for, each checked; none: the terminal post events. */
function checkEvents(events: string[], problems: string[]): SubscribableKind[] {
  events.forEach((e, i) => {
    if (!(EVENT_KINDS as readonly string[]).includes(e)) problems.push(`events[${i}] must be one of ${EVENT_KINDS.join(', ')} (got ${JSON.stringify(e)})`);
  });
  return events.length ? ([...new Set(events)] as SubscribableKind[]) : [...POST_EVENTS];
}

/** Refuses a URL that is or resolves to a forbidden address; a name that does not resolve (yet) is accepted and checked when sending. */
async function checkTarget(deps: WebhooksDeps, raw: string, problems: string[]): Promise<void> {
  const checked = checkUrl(raw, deps.allowPrivate);
  if ('problem' in checked) {
    problems.push(checked.problem);
    return;
  }
  if (deps.allowPrivate || literalAddress(checked.url)) return;
  let addresses;
  try {
    addresses = await deps.resolver.resolve(checked.url.hostname);
  } catch {
    return;
  }
  const picked = pickAddress(addresses, false);
  if ('problem' in picked && addresses.length) problems.push(picked.problem);
}

/**
 * Creates a webhook (at most 5 per workspace, disabled ones counted: a disabled webhook keeps its settings,
 * secret and log, and is enabled again without asking for room; deleting one frees its place) and returns it
 * with its secret, which is shown only here.
 */
export async function createWebhook(deps: WebhooksDeps, input: NewWebhook): Promise<{ webhook: Webhook; secret: string }> {
  const problems: string[] = [];
  if (!Number.isSafeInteger(input.workspaceId) || input.workspaceId <= 0) problems.push('workspace_id must be a positive integer');
  const events = checkEvents(input.events, problems);
  await checkTarget(deps, input.url, problems);
  if (problems.length) throw invalidParameters(problems);

  const secret = deps.newSecret();
  const now = deps.clock.now();
  const webhook: Webhook = {
    id: await deps.store.nextWebhookId(),
    workspaceId: input.workspaceId,
    url: input.url,
    events,
    enabled: true,
    enabledAt: now,
    secret: deps.secrets.encrypt(secret),
    createdAt: now,
  };
  // Each webhook takes one of the workspace's numbered slots; the unique index makes the limit hold under concurrent creates.
  for (let slot = 1; slot <= MAX_WEBHOOKS_PER_WORKSPACE; slot++) {
    if (await deps.store.insertWebhook(webhook, slot)) return { webhook, secret };
  }
  throw new AppError('INVALID_STATE', `a workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks (disabled ones count); delete one to add another`);
}

export function listWebhooks(deps: WebhooksDeps, workspaceId: number): Promise<Webhook[]> {
  return deps.store.listWebhooks(workspaceId);
}

/** The webhook, checked against the caller's workspace when one is given (operators pass none). */
export async function getWebhook(deps: WebhooksDeps, webhookId: number, workspaceId?: number): Promise<Webhook> {
  const webhook = await deps.store.getWebhook(webhookId);
  if (!webhook || (workspaceId !== undefined && webhook.workspaceId !== workspaceId)) throw notFound(`Webhook ${webhookId}`);
  return webhook;
}

async function update(deps: WebhooksDeps, id: number, patch: Parameters<WebhooksDeps['store']['updateWebhook']>[1]): Promise<Webhook> {
  const updated = await deps.store.updateWebhook(id, patch);
  if (!updated) throw notFound(`Webhook ${id}`);
  return updated;
}

export async function disableWebhook(deps: WebhooksDeps, webhookId: number, workspaceId?: number, reason = 'disabled by an operator'): Promise<Webhook> {
  await getWebhook(deps, webhookId, workspaceId);
  return update(deps, webhookId, { enabled: false, disabledReason: reason });
}

/** Replaces the kinds the webhook receives (none: the terminal post events); deliveries already made stay. */
export async function setWebhookEvents(deps: WebhooksDeps, webhookId: number, events: string[], workspaceId?: number): Promise<Webhook> {
  const problems: string[] = [];
  const kinds = checkEvents(events, problems);
  if (problems.length) throw invalidParameters(problems);
  await getWebhook(deps, webhookId, workspaceId);
  return update(deps, webhookId, { events: kinds });
}

/**
 * Deletes a webhook: no event is sent to it any more (a delivery still scheduled is dropped with it), its
 * delivery log goes with it, and its place among the workspace's webhooks is free. Answers it as it was.
 */
export async function deleteWebhook(deps: WebhooksDeps, webhookId: number, workspaceId?: number): Promise<Webhook> {
  const webhook = await getWebhook(deps, webhookId, workspaceId);
  if (!(await deps.store.deleteWebhook(webhookId))) throw notFound(`Webhook ${webhookId}`);
  return webhook;
}

/** Re-enables a webhook; the count of consecutive failed events starts again from zero. */
export async function enableWebhook(deps: WebhooksDeps, webhookId: number, workspaceId?: number): Promise<Webhook> {
  await getWebhook(deps, webhookId, workspaceId);
  return update(deps, webhookId, { enabled: true, disabledReason: undefined, enabledAt: deps.clock.now() });
}

/** Replaces the secret; the previous one keeps signing (second v1) for 24 hours. Returns the new secret, shown only here. */
export async function rotateSecret(deps: WebhooksDeps, webhookId: number, workspaceId?: number): Promise<{ webhook: Webhook; secret: string }> {
  const current = await getWebhook(deps, webhookId, workspaceId);
  const secret = deps.newSecret();
  const webhook = await update(deps, webhookId, {
    secret: deps.secrets.encrypt(secret),
    previousSecret: current.secret,
    previousSecretExpiresAt: new Date(deps.clock.now().getTime() + ROTATION_OVERLAP_MS),
  });
  return { webhook, secret };
}

/** Plain secrets to sign with now: the current one, then the previous one while it is in its overlap. */
export function signingSecrets(deps: Pick<WebhooksDeps, 'secrets' | 'clock'>, webhook: Webhook): string[] {
  const secrets = [deps.secrets.decrypt(webhook.secret)];
  if (webhook.previousSecret && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt.getTime() > deps.clock.now().getTime()) {
    secrets.push(deps.secrets.decrypt(webhook.previousSecret));
  }
  return secrets;
}
