import { invalidParameters, notFound } from '@spa/errors';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import type { ContentIdea, IdeasStore } from './model.js';

export const DEFAULT_IDEAS_LIMIT = 50;
export const MAX_IDEAS_LIMIT = 200;

export interface ListIdeasInput {
  workspaceId: number;
  /** 0 = the default (50); above 200 is clamped to 200; negative is 422. */
  limit: number;
  offset: number;
  platform?: string | undefined;
  unused: boolean;
}

export async function listIdeas(store: IdeasStore, input: ListIdeasInput) {
  const problems: string[] = [];
  if (!Number.isInteger(input.limit) || input.limit < 0) problems.push('limit must be an integer from 1 to 200');
  if (!Number.isInteger(input.offset) || input.offset < 0) problems.push('offset must be 0 or more');
  if (input.platform !== undefined && !PLATFORMS.includes(input.platform as Platform)) problems.push(`platform must be one of ${PLATFORMS.join(', ')}`);
  if (problems.length) throw invalidParameters(problems);
  const limit = Math.min(input.limit || DEFAULT_IDEAS_LIMIT, MAX_IDEAS_LIMIT);
  const { ideas, totalCount } = await store.listIdeas({
    workspaceId: input.workspaceId,
    limit,
    offset: input.offset,
    platform: input.platform as Platform | undefined,
    unused: input.unused,
  });
  return { ideas, totalCount, limit, offset: input.offset };
}

/**
 * The text to pass as `idea` to POST /posts/generate_from_idea: the idea's prompt (topic, angle and strategy),
 * self-contained so it needs nothing else.
 */
export const seedPromptOf = (idea: ContentIdea): string => idea.prompt;

/**
 * Marks an idea used and answers its seed prompt. Using it again answers the same, and used_at keeps the
 * first use's time (so a retried call changes nothing).
 */
export async function useIdea(store: IdeasStore, workspaceId: number, id: number, now: Date): Promise<{ seedPrompt: string; idea: ContentIdea }> {
  const idea = await store.getIdea(workspaceId, id);
  if (!idea) throw notFound('Content idea');
  const used = idea.usedAt ? idea : ((await store.markUsed(workspaceId, id, now)) ?? idea);
  return { seedPrompt: seedPromptOf(used), idea: used };
}
