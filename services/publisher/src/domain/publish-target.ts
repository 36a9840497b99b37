import { preflight, recheck } from '../connectors/preflight.js';
import { ConnectorError, type Connector, type PublishRequest } from '../connectors/types.js';
import type { Attempt, PublisherDeps, TargetOutcome } from './ports.js';
import { prepareRequest } from './prepare-media.js';

const MAX_RETRY_WAIT_MS = 30_000;

type Outcome = NonNullable<Attempt['outcome']>;
type Mode = 'publish' | 'dry_run';

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
  const disconnected = outcome.kind === 'failed' && outcome.disconnected;
  // The platform refused the account's token (the accounts service tells expired from revoked); else the post, or a passing failure.
  const errorClass = disconnected ? 'revoked' : outcome.kind === 'failed' && outcome.final ? 'rejected' : 'transient';
  return { postAccountId, platformStatus: 'failed', platformError: outcome.error, disconnected, errorClass };
}

/**
 * A target's request with its media made to fit its platform (`prepareRequest`), done before any attempt is
 * claimed: a publisher that dies while preparing (a long video conversion) or right after has sent nothing and
 * claimed nothing, and the next try prepares again, reusing the variants. A file that cannot be made to fit is a
 * `refusal`, recorded as the attempt's final outcome like any platform refusal (so a dry run and a publish give
 * the same verdict, and an earlier attempt's outcome still wins); null when the media service cannot answer now
 * (the target is tried again later, never published without its media).
 */
async function readyRequest(deps: PublisherDeps, request: PublishRequest): Promise<{ request: PublishRequest; refusal?: string | undefined } | null> {
  try {
    return { request: await prepareRequest(deps.media, request) };
  } catch (err) {
    if (err instanceof ConnectorError && err.kind === 'rejected') return { request, refusal: err.message };
    return null;
  }
}

/** The platform call of a claimed attempt (the connector's preflight in a dry run), as the attempt records it. */
function callOnce(connector: Connector, request: PublishRequest, mode: Mode, refusal: string | undefined): Promise<Outcome> {
  if (refusal !== undefined) return Promise.resolve({ kind: 'failed', error: refusal, final: true, disconnected: false });
  const call: Promise<Outcome> =
    mode === 'dry_run'
      ? preflight(connector, request).then((): Outcome => ({ kind: 'dry_run' }))
      : recheck(connector, request)
          .then(() => connector.publish(request))
          .then((p): Outcome => ({ kind: 'posted', platformPostId: p.platformPostId, permalink: p.permalink }));
  return call.catch((err: unknown): Outcome => {
    const o = outcomeOf(err);
    // A preflight sent nothing that could have been published: an unanswered check is just retried.
    return mode === 'dry_run' && o.kind === 'unknown' ? { kind: 'failed', error: o.error, final: false, disconnected: false } : o;
  });
}

interface ClaimedTry {
  attempt: Attempt;
  connector: Connector;
  /** What is sent: the request with its media prepared. */
  request: PublishRequest;
  /** Why its media cannot be published (the attempt then ends refused, with nothing sent). */
  refusal?: string | undefined;
}

/**
 * Runs the calls of claimed attempts and records their outcomes in one write once every call has
 * answered. Until then the attempts' leases are renewed (all in one write), also for a call that
 * already answered, so no other publisher takes a live attempt for a dead one; a publisher that dies
 * before the write leaves attempts without outcome, which are reconciled with the platform later.
 */
async function runClaimed(deps: PublisherDeps, tries: ClaimedTry[], mode: Mode): Promise<Outcome[]> {
  const keys = tries.map(({ attempt: { postAccountId, n } }) => ({ postAccountId, n }));
  let touching: Promise<void> = Promise.resolve();
  const renew = setInterval(
    () => {
      touching = deps.attempts.touch(keys, deps.clock.now()).catch(() => undefined);
    },
    Math.max(deps.attemptLeaseMs / 4, 250),
  );
  const outcomes = await Promise.all(tries.map((t) => callOnce(t.connector, t.request, mode, t.refusal))).finally(() => clearInterval(renew));
  await touching; // never let a late renewal land after (and over) an outcome
  await deps.attempts.record(keys.map((k, i) => ({ ...k, outcome: outcomes[i]! })));
  return outcomes;
}

const unsupported = (postAccountId: number, platform: string): TargetOutcome => ({
  postAccountId,
  platformStatus: 'failed',
  platformError: `publishing to ${platform} is not supported yet`,
  disconnected: false,
  errorClass: 'rejected',
});

/**
 * Publishes one target, never twice: every try is an attempt claimed by a uniquely numbered
 * document; before a new try, an earlier try whose outcome is unknown (no answer, or its publisher
 * died mid-call) is reconciled with the platform, and if the post is there it counts as published.
 * Transient failures and rate limits are retried (honouring the platform's hint, capped at 30 s)
 * up to `maxAttempts`; auth failures and refusals are final. Before an attempt is claimed, the request's
 * media are made to fit the platform (`readyRequest`); a file that cannot be is the attempt's final refusal.
 *
 * `dry_run` mode runs the connector's preflight (credentials, media, text) in place of its publish:
 * the same attempts, retries and final refusals, but nothing is ever sent to the platform's
 * publishing call, so there is nothing to reconcile either.
 */
export async function publishTarget(deps: PublisherDeps, postAccountId: number, request: PublishRequest, mode: Mode = 'publish'): Promise<TargetOutcome | null> {
  const connector = deps.connectors[request.target.platform];
  if (!connector) return unsupported(postAccountId, request.target.platform);
  let ready: Awaited<ReturnType<typeof readyRequest>> | undefined;
  for (;;) {
    const attempts = await deps.attempts.attempts(postAccountId);
    const last = attempts.at(-1);
    if (last?.outcome && isFinal(last.outcome)) return toResult(postAccountId, last.outcome);
    if (last && !last.outcome && deps.clock.now().getTime() - (last.aliveAt ?? last.startedAt).getTime() < deps.attemptLeaseMs) {
      return null; // Another publisher is on it right now: leave the job to it.
    }
    if (mode === 'publish' && last && last.outcome?.kind !== 'failed' && connector.canReconcile === false) {
      const error = 'the platform did not answer and offers no way to check whether the post was made; not retried, so it is never posted twice';
      if (!last.outcome) await deps.attempts.record([{ postAccountId, n: last.n, outcome: { kind: 'failed', error, final: true, disconnected: false } }]);
      return { postAccountId, platformStatus: 'failed', platformError: error, disconnected: false, errorClass: 'transient' };
    }
    if (mode === 'publish' && last && last.outcome?.kind !== 'failed') {
      // Unknown outcome (no answer, or a publisher died during the call): look before trying again.
      const found = await connector.findPublished(request, new Date(last.startedAt.getTime() - 60_000)).catch(() => undefined);
      if (found === undefined) return null; // Could not look now: the job is retried later.
      if (found) {
        const posted: Outcome = { kind: 'posted', platformPostId: found.platformPostId, permalink: found.permalink };
        if (!last.outcome) await deps.attempts.record([{ postAccountId, n: last.n, outcome: posted }]);
        return toResult(postAccountId, posted);
      }
    }
    if (attempts.length >= deps.maxAttempts) {
      const error = last?.outcome && 'error' in last.outcome ? last.outcome.error : 'no outcome';
      const rateLimited = last?.outcome?.kind === 'failed' && last.outcome.retryAfterMs !== undefined;
      return {
        postAccountId,
        platformStatus: 'failed',
        platformError: `gave up after ${attempts.length} attempts: ${error}`,
        disconnected: false,
        errorClass: rateLimited ? 'rate_limited' : 'transient',
      };
    }
    if (last?.outcome?.kind === 'failed') {
      const wait = Math.min(last.outcome.retryAfterMs ?? 1_000 * 2 ** (attempts.length - 1), MAX_RETRY_WAIT_MS);
      const elapsed = deps.clock.now().getTime() - last.startedAt.getTime();
      if (wait > elapsed) await deps.sleep(wait - elapsed);
    }
    ready ??= await readyRequest(deps, request);
    if (!ready) return null; // The media could not be prepared now: the job is retried later.
    const attempt: Attempt = { postAccountId, n: attempts.length + 1, startedAt: deps.clock.now() };
    if (!(await deps.attempts.claim([attempt]))[0]) return null;
    const [outcome] = await runClaimed(deps, [{ attempt, connector, request: ready.request, refusal: ready.refusal }], mode);
    // A final outcome is the answer: reading the attempts back would only find it again.
    if (isFinal(outcome!)) return toResult(postAccountId, outcome!);
  }
}

/** One target of a job: the post account and what to publish to it. */
export interface TargetRequest {
  postAccountId: number;
  request: PublishRequest;
}

/**
 * Publishes a job's targets with as few store writes as one target: the first tries of all targets
 * are claimed in one insert (attempt 1 of each), their outcomes recorded in one write. A target
 * whose attempt 1 already exists (an earlier delivery of the job, another publisher, or a post
 * published before) is not new: it goes through `publishTarget`, which reads its attempts and
 * decides as always (its answer, a held attempt left alone, reconciliation, a retry). So does a
 * target whose first try did not end it (a transient failure or an unknown outcome). Answers per
 * target, in order: its outcome, or null when it must be tried again later.
 */
export async function publishTargets(deps: PublisherDeps, targets: TargetRequest[], mode: Mode = 'publish'): Promise<Array<TargetOutcome | null>> {
  const results: Array<TargetOutcome | null> = targets.map(() => null);
  // Media first, for every target at once (a target whose media cannot be prepared now waits for a later try).
  const ready = await Promise.all(targets.map(({ request }) => (deps.connectors[request.target.platform] ? readyRequest(deps, request) : null)));
  const now = deps.clock.now();
  const first: Array<ClaimedTry & { index: number; original: PublishRequest }> = [];
  targets.forEach(({ postAccountId, request }, index) => {
    const connector = deps.connectors[request.target.platform];
    const prepared = ready[index];
    if (!connector) results[index] = unsupported(postAccountId, request.target.platform);
    else if (prepared) first.push({ index, connector, original: request, ...prepared, attempt: { postAccountId, n: 1, startedAt: now } });
  });
  const claimed = first.length ? await deps.attempts.claim(first.map((f) => f.attempt)) : [];
  const mine = first.filter((_, i) => claimed[i]);
  const known = first.filter((_, i) => !claimed[i]);
  await Promise.all([
    ...known.map(async (k) => (results[k.index] = await publishTarget(deps, k.attempt.postAccountId, k.original, mode))),
    (async () => {
      if (!mine.length) return;
      const outcomes = await runClaimed(deps, mine, mode);
      await Promise.all(
        mine.map(async (m, i) => {
          const outcome = outcomes[i]!;
          results[m.index] = isFinal(outcome) ? toResult(m.attempt.postAccountId, outcome) : await publishTarget(deps, m.attempt.postAccountId, m.original, mode);
        }),
      );
    })(),
  ]);
  return results;
}
