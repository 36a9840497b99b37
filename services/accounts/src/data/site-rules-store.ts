import { IdAllocator, type Connection } from '@spa/mongo';
import { Schema, type Model } from 'mongoose';
import type { SiteRule, SiteRulesStore } from '../domain/site-rules.js';
import type { AccountsModels } from './models.js';

interface SiteRuleDoc {
  _id: number;
  workspace_id: number;
  site_id: number;
  platform: string;
  trigger: string;
  schedule_mode: string;
  enabled: boolean;
  created_at: Date;
}

const toRule = (d: SiteRuleDoc): SiteRule => ({
  id: d._id,
  workspaceId: d.workspace_id,
  siteId: d.site_id,
  platform: d.platform as SiteRule['platform'],
  trigger: d.trigger as SiteRule['trigger'],
  scheduleMode: d.schedule_mode as SiteRule['scheduleMode'],
  enabled: d.enabled,
  createdAt: d.created_at,
});

/**
 * The `site_rules` collection: a site has a handful of rules, read whole by (workspace, site), an
 * equality filter that narrows to that handful on FerretDB too.
 */
export class MongoSiteRulesStore implements SiteRulesStore {
  private readonly Rule: Model<SiteRuleDoc>;
  private readonly ids: IdAllocator;

  constructor(
    connection: Connection,
    private readonly Site: AccountsModels['Site'],
  ) {
    this.Rule = connection.model<SiteRuleDoc>(
      'SiteRule',
      new Schema<SiteRuleDoc>(
        {
          _id: Number,
          workspace_id: { type: Number, required: true },
          site_id: { type: Number, required: true },
          platform: { type: String, required: true },
          trigger: { type: String, required: true },
          schedule_mode: { type: String, required: true },
          enabled: { type: Boolean, required: true },
          created_at: { type: Date, required: true },
        },
        { collection: 'site_rules', versionKey: false },
      ).index({ workspace_id: 1, site_id: 1 }),
    );
    this.ids = new IdAllocator(connection);
  }

  nextRuleId(): Promise<number> {
    return this.ids.next('site_rules');
  }

  async siteWorkspace(siteId: number): Promise<number | null> {
    const site = await this.Site.findOne({ _id: siteId }, { workspace_id: 1 }).lean<{ workspace_id: number }>();
    return site ? site.workspace_id : null;
  }

  async insertRule(r: SiteRule): Promise<void> {
    await this.Rule.create({
      _id: r.id,
      workspace_id: r.workspaceId,
      site_id: r.siteId,
      platform: r.platform,
      trigger: r.trigger,
      schedule_mode: r.scheduleMode,
      enabled: r.enabled,
      created_at: r.createdAt,
    });
  }

  async listRules(workspaceId: number, siteId: number): Promise<SiteRule[]> {
    const docs = await this.Rule.find({ workspace_id: workspaceId, site_id: siteId }).lean<SiteRuleDoc[]>();
    return docs.map(toRule).sort((a, b) => a.id - b.id);
  }

  async getRule(ruleId: number): Promise<SiteRule | null> {
    const doc = await this.Rule.findOne({ _id: ruleId }).lean<SiteRuleDoc>();
    return doc ? toRule(doc) : null;
  }

  async setEnabled(rule: SiteRule, enabled: boolean): Promise<SiteRule> {
    // A toggle is a plain set: racing toggles end with the last one, which is what the user last asked for.
    await this.Rule.updateOne({ _id: rule.id, workspace_id: rule.workspaceId }, { $set: { enabled } });
    return { ...rule, enabled };
  }

  async deleteRule(rule: SiteRule): Promise<void> {
    await this.Rule.deleteOne({ _id: rule.id, workspace_id: rule.workspaceId });
  }
}
