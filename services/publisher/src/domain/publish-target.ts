import { preflight } from '../connectors/preflight.js';
import { ConnectorError, type PublishRequest } from '../connectors/types.js';
import type { Attempt, PublisherDeps, TargetOutcome } from './ports.js';

const MAX_RETRY_WAIT_MS = 30_000;

type Outcome = NonNullable<Attempt['outcome']>;

function outcomeOf(err: unknown): Outcome {
  if (err instanceof ConnectorError) {
    switch (err.kind) {
      case 'unknown_outcome':
        return { kind: 'unknown', error: err.message };
      case 'auth':
        return { kind: 'failed', error: `credentials no longer valid: ${err.message}`, final: true, disconnected: true };
      case 'rejected':
        return { kind: 'failed', error: err.message, final: true, disconnected: false };
      case 'rate_limited':
      case 'transient':
        return { kind: 'failed', error: err.message, final: false, disconnected: false, retryAfterMs: err.retryAfterMs };
    }
  }
  return { kind: 'failed', error: err instanceof Error ? err.message : String(err), final: false, disconnected: false };
}

/** An outcome that ends the target: published, passed a dry run, or refused for good. */
const isFinal = (o: Outcome): boolean => o.kind === 'posted' || o.kind === 'dry_run' || (o.kind === 'failed' && o.final);

function toResult(postAccountId: number, outcome: Outcome): TargetOutcome {
  if (outcome.kind === 'dry_run') return { postAccountId, platformStatus: 'dry_run', disconnected: false };
  if (outcome.kind === 'posted') return { postAccountId, platformStatus: 'posted', platformPostId: outcome.platformPostId, permalink: outcome.permalink, disconnected: false };
  return { postAccountId, platformStatus: 'failed', platformError: outcome.error, disconnected: outcome.kind === 'failed' && outcome.disconnected };
}

/**
 * Publishes one target, never twice: every try is an attempt claimed by a uniquely numbered
 * document; before a new try, an earlier try whose outcome is unknown (no answer, or its publisher
 * died mid-call) is reconciled with the platform, and if the post is there it counts as published.
 * Transient failures and rate limits are retried (honouring the platform's hint, capped at 30 s)
 * up to `maxAttempts`; auth failures and refusals are final.
 *
 * `dry_run` mode runs the connector's preflight (credentials, media, text) in place of its publish:
 * the same attempts, retries and final refusals, but nothing is ever sent to the platform's
 * publishing call, so there is nothing to reconcile either.
 */
export async function publishTarget(deps: PublisherDeps, postAccountId: number, request: PublishRequest, mode: 'publish' | 'dry_run' = 'publish'): Promise<TargetOutcome | null> {
  const connector = deps.connectors[request.target.platform];
  if (!connector) return { postAccountId, platformStatus: 'failed', platformError: `publishing to ${request.target.platform} is not supported yet`, disconnected: false };
  for (;;) {
    const attempts = await deps.attempts.attempts(postAccountId);
    const last = attempts.at(-1);
    if (last?.outcome && isFinal(last.outcome)) return toResult(postAccountId, last.outcome);
    if (last && !last.outcome && deps.clock.now().getTime() - (last.aliveAt ?? last.startedAt).getTime() < deps.attemptLeaseMs) {
      return null; // Another publisher is on it right now: leave the job to it.
    }
    if (mode === 'publish' && last && last.outcome?.kind !== 'failed' && connector.canReconcile === false) {
      const error = 'the platform did not answer and offers no way to check whether the post was made; not retried, so it is never posted twice';
      if (!last.outcome) await deps.attempts.record(postAccountId, last.n, { kind: 'failed', error, final: true, disconnected: false });
      return { postAccountId, platformStatus: 'failed', platformError: error, disconnected: false };
    }
    if (mode === 'publish' && last && last.outcome?.kind !== 'failed') {
      // Unknown outcome (no answer, or a publisher died during the call): look before trying again.
      const found = await connector.findPublished(request, new Date(last.startedAt.getTime() - 60_000)).catch(() => undefined);
      if (found === undefined) return null; // Could not look now: the job is retried later.
      if (found) {
        const posted: Outcome = { kind: 'posted', platformPostId: found.platformPostId, permalink: found.permalink };
        if (!last.outcome) await deps.attempts.record(postAccountId, last.n, posted);
        return toResult(postAccountId, posted);
      }
    }
    if (attempts.length >= deps.maxAttempts) {
      const error = last?.outcome && 'error' in last.outcome ? last.outcome.error : 'no outcome';
      return { postAccountId, platformStatus: 'failed', platformError: `gave up after ${attempts.length} attempts: ${error}`, disconnected: false };
    }
    if (last?.outcome?.kind === 'failed') {
      const wait = Math.min(last.outcome.retryAfterMs ?? 1_000 * 2 ** (attempts.length - 1), MAX_RETRY_WAIT_MS);
      const elapsed = deps.clock.now().getTime() - last.startedAt.getTime();
      if (wait > elapsed) await deps.sleep(wait - elapsed);
    }
    const attempt: Attempt = { postAccountId, n: attempts.length + 1, startedAt: deps.clock.now() };
    if (!(await deps.attempts.claim(attempt))) return null;
    // Renew the lease while the call runs (a thread, uploads or status polling can outlast it), so no
    // other publisher takes a live attempt for a dead one.
    let touching: Promise<void> = Promise.resolve();
    const renew = setInterval(
      () => {
        touching = deps.attempts.touch(postAccountId, attempt.n, deps.clock.now()).catch(() => undefined);
      },
      Math.max(deps.attemptLeaseMs / 4, 250),
    );
    const call: Promise<Outcome> =
      mode === 'dry_run'
        ? preflight(connector, request).then((): Outcome => ({ kind: 'dry_run' }))
        : connector.publish(request).then((p): Outcome => ({ kind: 'posted', platformPostId: p.platformPostId, permalink: p.permalink }));
    const outcome = await call
      .catch((err: unknown): Outcome => {
        const o = outcomeOf(err);
        // A preflight sent nothing that could have been published: an unanswered check is just retried.
        return mode === 'dry_run' && o.kind === 'unknown' ? { kind: 'failed', error: o.error, final: false, disconnected: false } : o;
      })
      .finally(() => clearInterval(renew));
    await touching; // never let a late renewal land after (and over) the outcome
    await deps.attempts.record(postAccountId, attempt.n, outcome);
    // A final outcome is the answer: reading the attempts back would only find it again.
    if (isFinal(outcome)) return toResult(postAccountId, outcome);
  }
}
