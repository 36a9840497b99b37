import { buildPost, composeContext, contentsOf, validatePost, type PostInput } from '../compose-post.js';
import { createdEvent } from '../create-post.js';
import { nextFreeSlot } from '../next-slot.js';
import { topicOf, withLink } from './article.js';
import { matchRules, type MatchedRule } from './match-rules.js';
import type { DraftClaim, SitePushDeps, SitePushRecord } from './ports.js';

const ANGLE = 'Announce this new blog article to followers and make them want to read it; a link to the article is added after your text, so do not write one.';

/** The text of the rule's post: written by the generation service, the article's title and excerpt when it refuses. */
async function writeText(deps: SitePushDeps, push: SitePushRecord, m: MatchedRule): Promise<string> {
  const { article } = push;
  let text: string;
  try {
    text = await deps.writer.write(push.workspaceId, { topic: topicOf(article), platform: m.rule.platform, angle: ANGLE });
  } catch (err) {
    // Out of daily quota or no model available: a plain draft beats none (the user edits drafts anyway).
    deps.onBackgroundError(err, push.key);
    text = [article.title, article.excerpt?.trim()].filter(Boolean).join('\n\n');
  }
  return withLink(m.rule.platform, text, article.url);
}

/** Creates the claim's post unless it exists: the same post id whatever worker gets here, so one post. */
async function completeClaim(deps: SitePushDeps, push: SitePushRecord, m: MatchedRule, claim: DraftClaim): Promise<void> {
  if (await deps.store.get(push.workspaceId, claim.postId)) return;
  const body = await writeText(deps, push, m);
  // The claim's time is the post's creation time, so a retry writes the very same created event (deduplicated).
  const ctx = { ...(await composeContext(deps, push.workspaceId, m.accountIds)), now: claim.claimedAt };
  const input: PostInput = { workspaceId: push.workspaceId, body, status: 'draft', postContents: [], socialAccountIds: m.accountIds, source: 'blog' };
  if (m.rule.scheduleMode === 'scheduled') {
    const slot = await nextFreeSlot(deps, push.workspaceId, m.accountIds[0]!);
    // No free slot (paused schedule, none within the horizon or the plan's window): it stays a draft.
    if (slot.at && !validatePost({ ...input, status: 'scheduled', scheduledAt: slot.at }, { ...ctx, now: deps.clock.now() }).length) {
      Object.assign(input, { status: 'scheduled', scheduledAt: slot.at });
    }
  }
  const problems = validatePost(input, input.status === 'scheduled' ? { ...ctx, now: deps.clock.now() } : ctx);
  if (problems.length) throw new Error(`site push ${push.key}: rule ${m.rule.id} cannot make a valid post: ${problems.join('; ')}`);
  const [contents, accounts] = await Promise.all([deps.store.nextIds('post_contents', contentsOf(input, ctx.accounts).length), deps.store.nextIds('post_accounts', m.accountIds.length)]);
  const post = buildPost(input, ctx, { post: claim.postId, contents, accounts });
  if (await deps.store.insertOnce(post, createdEvent(post))) deps.flushEvents();
}

/**
 * Makes the posts of a pending push: per matching rule, a claim (unique insert, post id fixed in it),
 * then the post under that id. Any number of workers, crashes and retries end with one post per rule
 * for this content. Marks the push consumed when every rule has its post.
 */
export async function makeDrafts(deps: SitePushDeps, push: SitePushRecord): Promise<void> {
  const [rules, accounts] = await Promise.all([deps.sites.rules(push.workspaceId, push.siteId), deps.sites.connectedAccounts(push.workspaceId)]);
  const matched = matchRules(rules, accounts);
  const held = new Map((await deps.sitePushes.claims(push.workspaceId, push.key, push.contentHash)).map((c) => [c.ruleId, c]));
  const postIds: number[] = [];
  for (const m of matched) {
    const claim =
      held.get(m.rule.id) ??
      (await deps.sitePushes.claim({
        id: `${push.key}|${push.contentHash}|${m.rule.id}`,
        pushKey: push.key,
        contentHash: push.contentHash,
        workspaceId: push.workspaceId,
        ruleId: m.rule.id,
        platform: m.rule.platform,
        postId: (await deps.store.nextIds('posts', 1))[0]!,
        claimedAt: deps.clock.now(),
      }));
    await completeClaim(deps, push, m, claim);
    postIds.push(claim.postId);
  }
  await deps.sitePushes.markConsumed(push.workspaceId, push.key, push.contentHash, deps.clock.now(), { siteId: push.siteId, url: push.article.url, title: push.article.title, postIds });
}
