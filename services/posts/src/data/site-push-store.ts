import { eventIdOf, publicEvent, type EventOutbox } from '@spa/events';
import { isDuplicateKeyError, type Connection } from '@spa/mongo';
import { Schema, type Model } from 'mongoose';
import type { Platform } from '@spa/vocabulary';
import type { DraftClaim, SitePushRecord, SitePushStore } from '../domain/site-push/ports.js';

interface PushDoc {
  _id: string;
  workspace_id: number;
  site_id: number;
  url: string;
  title: string;
  excerpt?: string;
  content?: string;
  image_url?: string;
  published_at?: Date;
  content_hash: string;
  first_pushed_at: Date;
  last_pushed_at: Date;
  matched_rules: number;
  state: SitePushRecord['state'];
  consumed_at?: Date | null;
  consumed_hash?: string | null;
  lease_until?: Date | null;
}

interface LogDoc {
  workspace_id: number;
  site_id: number;
  key: string;
  at: Date;
  matched: boolean;
}

interface ClaimDoc {
  _id: string;
  push_key: string;
  content_hash: string;
  workspace_id: number;
  rule_id: number;
  platform: string;
  post_id: number;
  claimed_at: Date;
}

const toRecord = (d: PushDoc): SitePushRecord => ({
  key: d._id,
  workspaceId: d.workspace_id,
  siteId: d.site_id,
  article: { url: d.url, title: d.title, excerpt: d.excerpt, content: d.content, imageUrl: d.image_url, publishedAt: d.published_at },
  contentHash: d.content_hash,
  firstPushedAt: d.first_pushed_at,
  lastPushedAt: d.last_pushed_at,
  matchedRules: d.matched_rules,
  state: d.state,
  consumedAt: d.consumed_at ?? undefined,
  consumedHash: d.consumed_hash ?? undefined,
  leaseUntil: d.lease_until ?? undefined,
});

const toDoc = (r: SitePushRecord): PushDoc => ({
  _id: r.key,
  workspace_id: r.workspaceId,
  site_id: r.siteId,
  url: r.article.url,
  title: r.article.title,
  excerpt: r.article.excerpt,
  content: r.article.content,
  image_url: r.article.imageUrl,
  published_at: r.article.publishedAt,
  content_hash: r.contentHash,
  first_pushed_at: r.firstPushedAt,
  last_pushed_at: r.lastPushedAt,
  matched_rules: r.matchedRules,
  state: r.state,
  consumed_at: r.consumedAt ?? null,
  consumed_hash: r.consumedHash ?? null,
  lease_until: r.leaseUntil ?? null,
});

const toClaim = (d: ClaimDoc): DraftClaim => ({
  id: d._id,
  pushKey: d.push_key,
  contentHash: d.content_hash,
  workspaceId: d.workspace_id,
  ruleId: d.rule_id,
  platform: d.platform as Platform,
  postId: d.post_id,
  claimedAt: d.claimed_at,
});

/**
 * Site pushes in three collections: `site_pushes` (one per site and URL, `_id` the push key),
 * `site_push_log` (one entry per push, for the unmatched count) and `site_push_claims` (one per rule
 * and content, `_id` unique: the claim that decides who makes that post). Every query is an equality
 * filter on a site's or a push's own documents.
 */
export class MongoSitePushStore implements SitePushStore {
  private readonly Push: Model<PushDoc>;
  private readonly Log: Model<LogDoc>;
  private readonly Claim: Model<ClaimDoc>;

  /** `outbox`: where `site_push.consumed` is queued before the push is marked; without one, nothing is announced. */
  constructor(
    connection: Connection,
    private readonly outbox?: EventOutbox,
  ) {
    const push = new Schema<PushDoc>(
      {
        _id: String,
        workspace_id: { type: Number, required: true },
        site_id: { type: Number, required: true },
        url: { type: String, required: true },
        title: { type: String, required: true },
        excerpt: String,
        content: String,
        image_url: String,
        published_at: Date,
        content_hash: { type: String, required: true },
        first_pushed_at: { type: Date, required: true },
        last_pushed_at: { type: Date, required: true },
        matched_rules: { type: Number, required: true },
        state: { type: String, required: true },
        consumed_at: Date,
        consumed_hash: String,
        lease_until: Date,
      },
      { collection: 'site_pushes', versionKey: false },
    );
    push.index({ workspace_id: 1, site_id: 1, last_pushed_at: -1 });
    push.index({ state: 1 });
    this.Push = connection.model<PushDoc>('SitePush', push);
    const log = new Schema<LogDoc>(
      {
        workspace_id: { type: Number, required: true },
        site_id: { type: Number, required: true },
        key: { type: String, required: true },
        at: { type: Date, required: true },
        matched: { type: Boolean, required: true },
      },
      { collection: 'site_push_log', versionKey: false },
    );
    log.index({ workspace_id: 1, site_id: 1, matched: 1 });
    this.Log = connection.model<LogDoc>('SitePushLog', log);
    const claim = new Schema<ClaimDoc>(
      {
        _id: String,
        push_key: { type: String, required: true },
        content_hash: { type: String, required: true },
        workspace_id: { type: Number, required: true },
        rule_id: { type: Number, required: true },
        platform: { type: String, required: true },
        post_id: { type: Number, required: true },
        claimed_at: { type: Date, required: true },
      },
      { collection: 'site_push_claims', versionKey: false },
    );
    claim.index({ workspace_id: 1, push_key: 1, content_hash: 1 });
    this.Claim = connection.model<ClaimDoc>('SitePushClaim', claim);
  }

  async getPush(workspaceId: number, key: string): Promise<SitePushRecord | null> {
    const doc = await this.Push.findOne({ _id: key, workspace_id: workspaceId }).lean<PushDoc>();
    return doc ? toRecord(doc) : null;
  }

  async insertPush(record: SitePushRecord): Promise<boolean> {
    try {
      await this.Push.create(toDoc(record));
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async updatePush(record: SitePushRecord): Promise<void> {
    const { _id, ...fields } = toDoc(record);
    await this.Push.updateOne({ _id, workspace_id: record.workspaceId }, { $set: fields });
  }

  async extendLease(workspaceId: number, key: string, until: Date): Promise<void> {
    await this.Push.updateOne({ _id: key, workspace_id: workspaceId }, { $set: { lease_until: until } });
  }

  async markConsumed(workspaceId: number, key: string, contentHash: string, at: Date, consumed?: { siteId: number; url: string; title: string; postIds: number[] }): Promise<void> {
    const write = () =>
      this.Push.updateOne({ _id: key, workspace_id: workspaceId, content_hash: contentHash }, { $set: { state: 'done', consumed_at: at, consumed_hash: contentHash, lease_until: null } });
    if (!consumed || !this.outbox) {
      await write();
      return;
    }
    const data = { site_id: consumed.siteId, url: consumed.url, title: consumed.title, post_ids: consumed.postIds, consumed_at: at.toISOString() };
    const event = publicEvent(eventIdOf(this.outbox.namespace, `${key}|${contentHash}`, 'site_push.consumed'), workspaceId, 'site_push.consumed', at, data);
    // Kept once sent: a worker marking the same content consumed again meets it and announces nothing more.
    await this.outbox.around([{ event, landedWhen: { collection: 'site_pushes', id: key, field: 'consumed_hash', value: contentHash, op: 'eq' }, keep: true }], write, (r) => r.matchedCount === 1);
  }

  async logPush(entry: { workspaceId: number; siteId: number; key: string; at: Date; matched: boolean }): Promise<void> {
    await this.Log.create({ workspace_id: entry.workspaceId, site_id: entry.siteId, key: entry.key, at: entry.at, matched: entry.matched });
  }

  unmatchedCount(workspaceId: number, siteId: number): Promise<number> {
    return this.Log.countDocuments({ workspace_id: workspaceId, site_id: siteId, matched: false });
  }

  async recent(workspaceId: number, siteId: number, limit: number): Promise<SitePushRecord[]> {
    // The article bodies stay in the database: a site's listing reads its records' headers only.
    const docs = await this.Push.find({ workspace_id: workspaceId, site_id: siteId }, { content: 0, excerpt: 0 }).sort({ last_pushed_at: -1, _id: 1 }).limit(limit).lean<PushDoc[]>();
    return docs.map(toRecord);
  }

  async stalled(now: Date, limit: number): Promise<SitePushRecord[]> {
    const docs = await this.Push.find({ state: 'pending' }).lean<PushDoc[]>();
    return docs
      .map(toRecord)
      .filter((r) => !r.leaseUntil || r.leaseUntil <= now)
      .slice(0, limit);
  }

  async claim(claim: DraftClaim): Promise<DraftClaim> {
    try {
      await this.Claim.create({
        _id: claim.id,
        push_key: claim.pushKey,
        content_hash: claim.contentHash,
        workspace_id: claim.workspaceId,
        rule_id: claim.ruleId,
        platform: claim.platform,
        post_id: claim.postId,
        claimed_at: claim.claimedAt,
      });
      return claim;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const won = await this.Claim.findOne({ _id: claim.id }).lean<ClaimDoc>();
      return toClaim(won!);
    }
  }

  async claims(workspaceId: number, pushKey: string, contentHash: string): Promise<DraftClaim[]> {
    const docs = await this.Claim.find({ workspace_id: workspaceId, push_key: pushKey, content_hash: contentHash }).lean<ClaimDoc[]>();
    return docs.map(toClaim).sort((a, b) => a.ruleId - b.ruleId);
  }
}
