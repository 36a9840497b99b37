import type { Platform } from '@spa/vocabulary';

export type MediaType = 'text' | 'image' | 'video';

export interface ContentIdea {
  id: number;
  workspaceId: number;
  platform: Platform;
  topic: string;
  angle?: string | undefined;
  /** The instruction a writer follows for this idea; also the seed_prompt answered on use. */
  prompt: string;
  source: string;
  sourceUrl?: string | undefined;
  sourceLabel?: string | undefined;
  /** YYYY-MM-DD, the producing run's local date in the workspace time zone. */
  generatedForDate: string;
  dismissedAt?: Date | undefined;
  usedAt?: Date | undefined;
  mediaType: MediaType;
  contentPlanId?: number | undefined;
  /** What produced it, unique: producing an idea twice (a resumed run) stores it once. */
  sourceKey: string;
  createdAt: Date;
}

export interface IdeasQuery {
  workspaceId: number;
  limit: number;
  offset: number;
  platform?: Platform | undefined;
  unused: boolean;
}

export interface IdeasStore {
  nextIdeaId(): Promise<number>;
  /** False when an idea with the same source key exists already. */
  insertIdea(idea: ContentIdea): Promise<boolean>;
  listIdeas(query: IdeasQuery): Promise<{ ideas: ContentIdea[]; totalCount: number }>;
  getIdea(workspaceId: number, id: number): Promise<ContentIdea | null>;
  /** Sets used_at when it is not set yet; answers the idea as stored afterwards. */
  markUsed(workspaceId: number, id: number, at: Date): Promise<ContentIdea | null>;
}
