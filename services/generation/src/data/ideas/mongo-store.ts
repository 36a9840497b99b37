import { IdAllocator, isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { Platform } from '@spa/vocabulary';
import { Schema } from 'mongoose';
import type { ContentIdea, IdeasQuery, IdeasStore, MediaType } from '../../domain/ideas/model.js';

interface IdeaDoc {
  _id: number;
  workspace_id: number;
  platform: string;
  topic: string;
  angle?: string | null;
  prompt: string;
  source: string;
  source_url?: string | null;
  source_label?: string | null;
  generated_for_date: string;
  dismissed_at?: Date | null;
  used_at?: Date | null;
  media_type: string;
  content_plan_id?: number | null;
  source_key: string;
  created_at: Date;
}

function registerIdeaModel(connection: Connection) {
  const schema = new Schema(
    {
      _id: Number,
      workspace_id: { type: Number, required: true },
      platform: { type: String, required: true },
      topic: { type: String, required: true },
      angle: String,
      prompt: { type: String, required: true },
      source: { type: String, required: true },
      source_url: String,
      source_label: String,
      generated_for_date: { type: String, required: true },
      dismissed_at: Date,
      used_at: { type: Date, default: null },
      media_type: { type: String, required: true },
      content_plan_id: Number,
      source_key: { type: String, required: true },
      created_at: { type: Date, required: true },
    },
    { collection: 'content_ideas', versionKey: false },
  );
  // A resumed run produces the same idea again: the unique key stores it once.
  schema.index({ source_key: 1 }, { unique: true });
  schema.index({ workspace_id: 1, generated_for_date: -1, _id: -1 });
  return connection.model('ContentIdea', schema);
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

function toIdea(d: IdeaDoc): ContentIdea {
  return {
    id: d._id,
    workspaceId: d.workspace_id,
    platform: d.platform as Platform,
    topic: d.topic,
    angle: opt(d.angle),
    prompt: d.prompt,
    source: d.source,
    sourceUrl: opt(d.source_url),
    sourceLabel: opt(d.source_label),
    generatedForDate: d.generated_for_date,
    dismissedAt: opt(d.dismissed_at),
    usedAt: opt(d.used_at),
    mediaType: d.media_type as MediaType,
    contentPlanId: opt(d.content_plan_id),
    sourceKey: d.source_key,
    createdAt: d.created_at,
  };
}

export class MongoIdeasStore implements IdeasStore {
  private readonly Idea;
  private readonly ids: IdAllocator;

  constructor(connection: Connection) {
    this.Idea = registerIdeaModel(connection);
    this.ids = new IdAllocator(connection);
  }

  nextIdeaId(): Promise<number> {
    return this.ids.next('content_ideas');
  }

  async insertIdea(i: ContentIdea): Promise<boolean> {
    try {
      await this.Idea.create({
        _id: i.id,
        workspace_id: i.workspaceId,
        platform: i.platform,
        topic: i.topic,
        angle: i.angle,
        prompt: i.prompt,
        source: i.source,
        source_url: i.sourceUrl,
        source_label: i.sourceLabel,
        generated_for_date: i.generatedForDate,
        media_type: i.mediaType,
        content_plan_id: i.contentPlanId,
        source_key: i.sourceKey,
        created_at: i.createdAt,
      });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async listIdeas(q: IdeasQuery): Promise<{ ideas: ContentIdea[]; totalCount: number }> {
    const filter: Record<string, unknown> = { workspace_id: q.workspaceId };
    if (q.platform) filter.platform = q.platform;
    if (q.unused) filter.used_at = null;
    const [docs, totalCount] = await Promise.all([this.Idea.find(filter).sort({ generated_for_date: -1, _id: -1 }).skip(q.offset).limit(q.limit).lean<IdeaDoc[]>(), this.Idea.countDocuments(filter)]);
    return { ideas: docs.map(toIdea), totalCount };
  }

  async getIdea(workspaceId: number, id: number): Promise<ContentIdea | null> {
    const doc = await this.Idea.findOne({ _id: id, workspace_id: workspaceId }).lean<IdeaDoc>();
    return doc ? toIdea(doc) : null;
  }

  async markUsed(workspaceId: number, id: number, at: Date): Promise<ContentIdea | null> {
    await this.Idea.updateOne({ _id: id, workspace_id: workspaceId, used_at: null }, { $set: { used_at: at } });
    return this.getIdea(workspaceId, id);
  }
}
