import type { SandboxPlatform } from '../router.js';
import { error, versioned } from './linkedin/api.js';
import { assetFacts, assetRoutes, mediaProblem, nextId, URN } from './linkedin/assets.js';
import { LINKEDIN_MULTI_IMAGE, LINKEDIN_RULES } from './linkedin/rules.js';

export { LINKEDIN_VIDEO_PART_BYTES } from './linkedin/assets.js';
export { LINKEDIN_DOCUMENT, LINKEDIN_IMAGE, LINKEDIN_RULES, LINKEDIN_VIDEO } from './linkedin/rules.js';

/**
 * LinkedIn versioned API: POST /rest/posts (201, empty body, URN in `x-restli-id`), GET /rest/posts?q=author
 * (finder), DELETE /rest/posts/:urn, POST /rest/socialActions/:urn/comments, GET /rest/socialActions/:urn,
 * GET /rest/organizationalEntityShareStatistics, GET /v2/userinfo, and media uploads (see assets below):
 * POST /rest/{images|documents}?action=initializeUpload + PUT to the returned uploadUrl;
 * POST /rest/videos?action=initializeUpload (byte ranges of 4 MiB, one signed uploadUrl each), PUT each
 * part (answers an ETag), POST /rest/videos?action=finalizeUpload with the ETags in order, GET /rest/videos/:urn
 * (status; plus `sandbox.parts`: size, SHA-256 and ETag of each part received, so a test can check
 * every byte arrived in order; the parts' bytes are held only until finalizeUpload reads the video from them). `/rest` calls need `LinkedIn-Version`;
 * writes need `X-Restli-Protocol-Version: 2.0.0`. Comments are kept in the post's `details.comments`.
 * As LinkedIn does, an upload's owner must be the token's member (or an organization), and a post may
 * use only AVAILABLE media owned by its author. Uploads are read from their bytes and checked as
 * LINKEDIN_RULES says (a failing one ends PROCESSING_FAILED); a post records the media it carried.
 */
export const linkedin: SandboxPlatform = {
  name: 'linkedin',
  unauthorized: () => ({ status: 401, body: { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' } }),
  rules: LINKEDIN_RULES,
  routes: [
    {
      method: 'POST',
      path: '/rest/posts',
      creates: true,
      handle: versioned((req, state) => {
        const b = req.body as
          | {
              author?: string;
              commentary?: string;
              visibility?: string;
              lifecycleState?: string;
              distribution?: { feedDistribution?: string };
              content?: {
                media?: { id?: string; title?: string };
                multiImage?: { images?: Array<{ id?: string }> };
                poll?: { question?: string; options?: Array<{ text?: string }>; settings?: { duration?: string } };
              };
            }
          | undefined;
        if (!b?.author || !URN.test(b.author)) return error(422, 'ERROR :: /author :: invalid URN', 'UNPROCESSABLE_ENTITY');
        if (typeof b.commentary !== 'string' || b.commentary.length > 3000) return error(400, '/commentary must be a string of at most 3000 characters');
        if (!b.commentary && !b.content) return error(400, 'a post needs commentary or content');
        if (b.visibility !== 'PUBLIC' || b.lifecycleState !== 'PUBLISHED' || !b.distribution?.feedDistribution) return error(400, 'visibility, lifecycleState and distribution are required');
        const multi = b.content?.multiImage?.images;
        if (multi && (multi.length < LINKEDIN_MULTI_IMAGE.min || multi.length > LINKEDIN_MULTI_IMAGE.max)) {
          return error(400, `/content/multiImage/images must have ${LINKEDIN_MULTI_IMAGE.min} to ${LINKEDIN_MULTI_IMAGE.max} images`);
        }
        if (multi?.some((i) => !i.id?.startsWith('urn:li:image:'))) return error(400, '/content/multiImage/images may only hold images');
        const ids = [b.content?.media?.id, ...(multi ?? []).map((i) => i.id)].filter((id) => id !== undefined);
        for (const id of ids) {
          const refused = mediaProblem(state, id, b.author);
          if (refused) return refused;
        }
        if (b.content?.media?.id?.startsWith('urn:li:document:') && !b.content.media.title) return error(400, '/content/media/title is required for documents');
        const poll = b.content?.poll;
        if (poll && (!poll.question || (poll.options?.length ?? 0) < 2 || (poll.options?.length ?? 0) > 4 || !poll.settings?.duration)) {
          return error(400, 'a poll needs a question, 2 to 4 options and a duration');
        }
        const id = nextId();
        const media = ids.map((id) => assetFacts(state, id)!).filter(Boolean);
        const post = state.createPost('linkedin', req.account!, b.commentary, { author: b.author, content: b.content, comments: [] }, `urn:li:share:${id}`, media);
        return { status: 201, headers: { 'x-restli-id': post.id, 'x-linkedin-id': post.id } };
      }),
    },
    {
      method: 'GET',
      path: '/rest/posts',
      handle: versioned((req, state) => {
        const author = req.query.get('author');
        if (req.query.get('q') !== 'author' || !author) return error(400, 'q=author and author are required');
        const count = Number(req.query.get('count') ?? 10);
        const elements = state
          .postsOf('linkedin', req.account)
          .filter((p) => p.details.author === author)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .slice(0, count)
          .map((p) => ({
            id: p.id,
            author,
            commentary: p.text,
            visibility: 'PUBLIC',
            lifecycleState: 'PUBLISHED',
            createdAt: p.createdAt.getTime(),
            publishedAt: p.createdAt.getTime(),
            lastModifiedAt: p.createdAt.getTime(),
          }));
        return { status: 200, body: { paging: { start: 0, count, links: [] }, elements } };
      }),
    },
    {
      method: 'DELETE',
      path: '/rest/posts/:urn',
      handle: versioned((req, state) => (state.remove('linkedin', decodeURIComponent(req.params.urn!)) ? { status: 204 } : error(404, 'Not Found', 'NOT_FOUND'))),
    },
    {
      method: 'POST',
      path: '/rest/socialActions/:urn/comments',
      handle: versioned((req, state) => {
        const urn = decodeURIComponent(req.params.urn!);
        const post = state.find('linkedin', urn);
        const b = req.body as { actor?: string; object?: string; message?: { text?: string } } | undefined;
        if (!post) return error(404, 'Not Found', 'NOT_FOUND');
        if (!b?.actor || !URN.test(b.actor) || b.object !== urn || !b.message?.text) return error(400, 'actor, object and message.text are required');
        const comments = post.details.comments as Array<{ actor: string; text: string }>;
        comments.push({ actor: b.actor, text: b.message.text });
        const id = `urn:li:comment:(${urn},${comments.length})`;
        return { status: 201, headers: { 'x-restli-id': id }, body: { id, actor: b.actor, object: urn, message: { text: b.message.text } } };
      }),
    },
    {
      method: 'GET',
      path: '/rest/socialActions/:urn',
      handle: versioned((req, state) => {
        const post = state.find('linkedin', decodeURIComponent(req.params.urn!));
        if (!post) return error(404, 'Not Found', 'NOT_FOUND');
        const comments = (post.details.comments as unknown[]).length;
        return {
          status: 200,
          body: { target: post.id, likesSummary: { totalLikes: 5, likedByCurrentUser: false }, commentsSummary: { aggregatedTotalComments: comments, totalFirstLevelComments: comments } },
        };
      }),
    },
    {
      method: 'GET',
      path: '/rest/organizationalEntityShareStatistics',
      handle: versioned((req, state) => {
        const org = req.query.get('organizationalEntity') ?? '';
        const list = req.query.get('shares') ?? req.query.get('ugcPosts') ?? '';
        const urn = /^List\((.+)\)$/.exec(list)?.[1];
        if (req.query.get('q') !== 'organizationalEntity' || !org.startsWith('urn:li:organization:') || !urn)
          return error(400, 'q=organizationalEntity, organizationalEntity and shares=List(…) are required');
        const post = state.find('linkedin', urn);
        if (!post) return { status: 200, body: { paging: { start: 0, count: 10, links: [] }, elements: [] } };
        const totalShareStatistics = { impressionCount: 250, uniqueImpressionsCount: 200, clickCount: 12, likeCount: 9, commentCount: 3, shareCount: 2, engagement: 0.104 };
        return { status: 200, body: { paging: { start: 0, count: 10, links: [] }, elements: [{ organizationalEntity: org, share: urn, totalShareStatistics }] } };
      }),
    },
    ...assetRoutes,
    {
      method: 'GET',
      path: '/v2/userinfo',
      handle: (req) => ({
        status: 200,
        body: { sub: req.account, name: req.account, picture: `https://sandbox.invalid/avatars/${req.account}.jpg`, email_verified: true, locale: { country: 'US', language: 'en' } },
      }),
    },
  ],
};
