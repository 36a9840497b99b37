import type { Post } from '../../domain/model.js';

/** A post for the store's tests: a publishing API post with no contents or targets, unless told otherwise. */
export function aPost(p: Pick<Post, 'id' | 'workspaceId'> & Partial<Post>): Post {
  const at = p.updatedAt ?? new Date('2026-11-26T12:00:00Z');
  return {
    status: 'publishing',
    flexible: false,
    disconnected: false,
    source: 'api',
    recurrenceJitterEnabled: false,
    evergreen: false,
    evergreenVariations: [],
    recurrenceIntervalDays: 30,
    createdAt: at,
    updatedAt: at,
    body: `post ${p.id}`,
    dryRun: false,
    postContents: [],
    postAccounts: [],
    ...p,
  };
}
