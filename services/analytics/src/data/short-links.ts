import { isDuplicateKeyError } from '@spa/mongo';
import type { ShortLink, ShortLinkStore } from '../domain/ports.js';
import type { AnalyticsModels } from './models.js';

interface ShortLinkDoc {
  _id: string;
  post_account_id: number;
  workspace_id: number;
  index: number;
  original_url: string;
  short_url: string;
  dub_link_id: string;
}

const toLink = (d: ShortLinkDoc): ShortLink => ({
  postAccountId: d.post_account_id,
  workspaceId: d.workspace_id,
  index: d.index,
  originalUrl: d.original_url,
  shortUrl: d.short_url,
  dubLinkId: d.dub_link_id,
});

/** A target's Dub links, one document per target and URL index (a unique insert). */
export class MongoShortLinks implements ShortLinkStore {
  constructor(private readonly models: AnalyticsModels) {}

  async linksOf(postAccountId: number): Promise<ShortLink[]> {
    const docs = await this.models.ShortLink.find({ post_account_id: postAccountId }).lean<ShortLinkDoc[]>();
    return docs.map(toLink).sort((a, b) => a.index - b.index);
  }

  async insert(link: ShortLink): Promise<ShortLink> {
    const _id = `${link.postAccountId}:${link.index}`;
    try {
      await this.models.ShortLink.create({
        _id,
        post_account_id: link.postAccountId,
        workspace_id: link.workspaceId,
        index: link.index,
        original_url: link.originalUrl,
        short_url: link.shortUrl,
        dub_link_id: link.dubLinkId,
        created_at: new Date(),
      });
      return link;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const first = await this.models.ShortLink.findOne({ _id }).lean<ShortLinkDoc>();
      if (!first) throw err;
      return toLink(first);
    }
  }
}
