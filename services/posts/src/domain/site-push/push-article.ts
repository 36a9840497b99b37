import { contentHash, pushKey, validateArticle, type Article } from './article.js';
import { makeDrafts } from './make-drafts.js';
import { matchRules } from './match-rules.js';
import type { DraftClaim, SitePushDeps, SitePushRecord } from './ports.js';

export interface PushResult {
  push: SitePushRecord;
  drafts: DraftClaim[];
  created: boolean;
  /** The content differs from what the last set of drafts was made from (or none was made). */
  contentChanged: boolean;
}

/**
 * Records an article pushed by a site (idempotent by URL) and, when an enabled rule matches a
 * connected account and the content has no drafts yet, starts making them in the background
 * (a crash is picked up by the sweeper once the lease runs out).
 */
export async function pushArticle(deps: SitePushDeps, workspaceId: number, siteId: number, input: Article): Promise<PushResult> {
  const site = await deps.sites.site(workspaceId, siteId);
  const article = validateArticle(input, site.url);
  const [rules, accounts] = await Promise.all([deps.sites.rules(workspaceId, siteId), deps.sites.connectedAccounts(workspaceId)]);
  const matched = matchRules(rules, accounts);
  const now = deps.clock.now();
  const key = pushKey(siteId, article.url);
  const hash = contentHash(article);
  const leaseUntil = new Date(now.getTime() + deps.leaseMs);
  const first: SitePushRecord = {
    key,
    workspaceId,
    siteId,
    article,
    contentHash: hash,
    firstPushedAt: now,
    lastPushedAt: now,
    matchedRules: matched.length,
    state: matched.length ? 'pending' : 'unmatched',
    leaseUntil,
  };
  const created = await deps.sitePushes.insertPush(first);
  let record = first;
  /** Another worker is making this content's drafts right now (its lease runs). */
  let inHand = false;
  if (!created) {
    const existing = (await deps.sitePushes.getPush(workspaceId, key))!;
    const state = existing.consumedHash === hash ? 'done' : matched.length ? 'pending' : 'unmatched';
    inHand = state === 'pending' && existing.state === 'pending' && existing.contentHash === hash && !!existing.leaseUntil && existing.leaseUntil > now;
    record = { ...existing, article, contentHash: hash, lastPushedAt: now, matchedRules: matched.length, state, leaseUntil: inHand ? existing.leaseUntil : leaseUntil };
    await deps.sitePushes.updatePush(record);
  }
  await deps.sitePushes.logPush({ workspaceId, siteId, key, at: now, matched: matched.length > 0 });
  if (record.state === 'pending' && !inHand) {
    // A failed first attempt (a service down for a moment) gives its lease back: the next sweep retries it.
    void makeDrafts(deps, record).catch(async (err: unknown) => {
      deps.onBackgroundError(err, key);
      await deps.sitePushes.extendLease(workspaceId, key, new Date(0)).catch((e: unknown) => deps.onBackgroundError(e, key));
    });
  }
  const drafts = await deps.sitePushes.claims(workspaceId, key, hash);
  return { push: record, drafts, created, contentChanged: record.consumedHash !== hash };
}
