import type { Site } from '../domain/model.js';
import type { SitesRepository } from '../domain/ports.js';
import type { AccountsModels } from './models.js';

export interface SiteDoc {
  _id: number;
  workspace_id: number;
  name: string;
  url: string;
  cms: string;
  token_hash: string;
  created_at: Date;
  last_push_at?: Date | null;
  unmatched_pushes: number;
}

export const toSite = (d: SiteDoc): Site => ({
  id: d._id,
  workspaceId: d.workspace_id,
  name: d.name,
  url: d.url,
  cms: d.cms,
  tokenHash: d.token_hash,
  createdAt: d.created_at,
  lastPushAt: d.last_push_at ?? undefined,
  unmatchedPushes: d.unmatched_pushes,
});

export class MongoSites implements SitesRepository {
  constructor(private readonly models: AccountsModels) {}

  async insert(s: Site): Promise<void> {
    await this.models.Site.create({
      _id: s.id,
      workspace_id: s.workspaceId,
      name: s.name,
      url: s.url,
      cms: s.cms,
      token_hash: s.tokenHash,
      created_at: s.createdAt,
      unmatched_pushes: s.unmatchedPushes,
    });
  }

  async get(workspaceId: number, siteId: number): Promise<Site | null> {
    const doc = await this.models.Site.findOne({ _id: siteId, workspace_id: workspaceId }).lean<SiteDoc>();
    return doc ? toSite(doc) : null;
  }

  async findByTokenHash(hash: string): Promise<Site | null> {
    const doc = await this.models.Site.findOne({ token_hash: hash }).lean<SiteDoc>();
    return doc ? toSite(doc) : null;
  }
}
