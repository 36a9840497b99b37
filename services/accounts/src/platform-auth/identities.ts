import type { Platform } from '@spa/vocabulary';
import type { Identity, TokenSet } from '../domain/connect/ports.js';
import { str } from './http.js';

/** Reads a JSON answer of the platform's API with the user's token. */
export type Get = (path: string, token: string, opts?: { query?: Record<string, string>; tokenIn?: 'header' | 'query' }) => Promise<Record<string, unknown>>;

type Reader = (get: Get, tokens: TokenSet) => Promise<Identity>;
const NONE: Identity = { externalId: '', username: '', displayName: '', avatarUrl: '', credentials: {} };

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const first = (v: unknown): Record<string, unknown> => obj(Array.isArray(v) ? v[0] : undefined);

/**
 * Facebook / Instagram: the user's pages (`/me/accounts`). The connector needs the page's own token:
 * a page listed without one (reached through a Business portfolio without selecting it in the login
 * dialog) leaves the account unconnected, saying which page to select.
 */
async function metaPage(get: Get, tokens: TokenSet, instagram: boolean): Promise<Identity> {
  const answer = await get('/me/accounts', tokens.accessToken, { query: { fields: 'id,name,access_token,instagram_business_account{id,username,profile_picture_url}' }, tokenIn: 'query' });
  const pages = (Array.isArray(answer.data) ? answer.data : []).map(obj);
  const base = { externalId: '', username: '', displayName: '', avatarUrl: '', credentials: {} };
  if (!pages.length) return { ...base, incomplete: 'No Facebook Page was shared with the app. Reconnect and select the Page (and its Instagram account) in the Facebook dialog.' };
  const page = instagram ? (pages.find((p) => obj(p.instagram_business_account).id) ?? pages[0]!) : pages[0]!;
  const name = str(page.name) || str(page.id);
  if (!str(page.access_token)) {
    return {
      ...base,
      incomplete: `The Page "${name}" was listed without its own access token (it is reached through a Business portfolio). Reconnect and select "${name}" on the Pages step of the Facebook dialog.`,
    };
  }
  if (instagram) {
    const ig = obj(page.instagram_business_account);
    if (!str(ig.id)) return { ...base, incomplete: `The Page "${name}" has no Instagram business or creator account linked. Link one in the Page's settings, then reconnect.` };
    return {
      externalId: str(ig.id),
      username: str(ig.username),
      displayName: str(ig.username),
      avatarUrl: str(ig.profile_picture_url),
      credentials: { ig_user_id: str(ig.id), page_id: str(page.id) },
      accessToken: str(page.access_token),
    };
  }
  return { externalId: str(page.id), username: name, displayName: name, avatarUrl: '', credentials: { page_id: str(page.id) }, accessToken: str(page.access_token) };
}

export const IDENTITY_READERS: Partial<Record<Platform, Reader>> = {
  twitter: async (get, t): Promise<Identity> => {
    const u = obj((await get('/2/users/me', t.accessToken, { query: { 'user.fields': 'profile_image_url' } })).data);
    return { externalId: str(u.id), username: str(u.username), displayName: str(u.name), avatarUrl: str(u.profile_image_url), credentials: {} };
  },
  linkedin: async (get, t): Promise<Identity> => {
    const u = await get('/v2/userinfo', t.accessToken);
    return { externalId: str(u.sub), username: str(u.name) || str(u.sub), displayName: str(u.name), avatarUrl: str(u.picture), credentials: { author_urn: `urn:li:person:${str(u.sub)}` } };
  },
  youtube: async (get, t): Promise<Identity> => {
    const c = first((await get('/youtube/v3/channels', t.accessToken, { query: { part: 'snippet', mine: 'true' } })).items);
    const snippet = obj(c.snippet);
    if (!str(c.id)) return { ...NONE, incomplete: 'This Google account has no YouTube channel. Create one, then reconnect.' };
    return {
      externalId: str(c.id),
      username: str(snippet.customUrl) || str(c.id),
      displayName: str(snippet.title),
      avatarUrl: str(obj(obj(snippet.thumbnails).default).url),
      credentials: { channel_id: str(c.id) },
    };
  },
  google_business: async (get, t): Promise<Identity> => {
    const account = first((await get('/v1/accounts', t.accessToken)).accounts);
    const accountName = str(account.name);
    const none = NONE;
    if (!accountName) return { ...none, incomplete: 'This Google account manages no Business Profile. Create or claim one, then reconnect.' };
    const location = first((await get(`/v1/${accountName}/locations`, t.accessToken, { query: { readMask: 'name,title' } })).locations);
    if (!str(location.name)) return { ...none, incomplete: `The Business Profile account "${str(account.accountName)}" has no location. Add one, then reconnect.` };
    const locationId = str(location.name).replace(/^locations\//, '');
    return {
      externalId: locationId,
      username: str(location.title) || locationId,
      displayName: str(location.title),
      avatarUrl: '',
      credentials: { account_id: accountName.replace(/^accounts\//, ''), location_id: locationId, language_code: str(location.languageCode) || 'en' },
    };
  },
  facebook: (get, t) => metaPage(get, t, false),
  instagram: (get, t) => metaPage(get, t, true),
  threads: async (get, t): Promise<Identity> => {
    const u = await get('/me', t.accessToken, { query: { fields: 'id,username,name,threads_profile_picture_url' }, tokenIn: 'query' });
    return {
      externalId: str(u.id),
      username: str(u.username),
      displayName: str(u.name) || str(u.username),
      avatarUrl: str(u.threads_profile_picture_url),
      credentials: { threads_user_id: str(u.id) },
    };
  },
  pinterest: async (get, t): Promise<Identity> => {
    const u = await get('/v5/user_account', t.accessToken);
    const board = first((await get('/v5/boards', t.accessToken, { query: { page_size: '25' } })).items);
    const username = str(u.username);
    return {
      externalId: username,
      username,
      displayName: str(u.business_name) || username,
      avatarUrl: str(u.profile_image),
      credentials: (str(board.id) ? { board_id: str(board.id) } : {}) as Record<string, string>,
    };
  },
  tiktok: async (get, t): Promise<Identity> => {
    const u = obj(obj((await get('/v2/user/info/', t.accessToken, { query: { fields: 'open_id,union_id,avatar_url,display_name,username' } })).data).user);
    const openId = str(u.open_id) || str(t.extras.open_id);
    return {
      externalId: openId,
      username: str(u.username) || str(u.display_name),
      displayName: str(u.display_name),
      avatarUrl: str(u.avatar_url),
      credentials: { open_id: openId, privacy_level: 'SELF_ONLY' },
    };
  },
  tumblr: async (get, t): Promise<Identity> => {
    const user = obj(obj((await get('/v2/user/info', t.accessToken)).response).user);
    const blogs = (Array.isArray(user.blogs) ? user.blogs : []).map(obj);
    const blog = blogs.find((b) => b.primary) ?? blogs[0];
    if (!blog) return { ...NONE, incomplete: 'This Tumblr account has no blog. Create one, then reconnect.' };
    return { externalId: str(blog.name), username: str(blog.name), displayName: str(blog.title) || str(blog.name), avatarUrl: '', credentials: { blog: str(blog.name) } };
  },
  slack: async (get, t): Promise<Identity> => {
    const hook = obj(t.extras.incoming_webhook);
    const team = obj(t.extras.team);
    const none = NONE;
    if (!str(hook.channel_id)) return { ...none, incomplete: 'No channel was chosen. Reconnect and pick the channel to post to on the Slack screen.' };
    const who = await get('/auth.test', t.accessToken);
    return {
      externalId: `${str(team.id) || str(who.team_id)}:${str(hook.channel_id)}`,
      username: str(hook.channel),
      displayName: `${str(team.name) || str(who.team)} ${str(hook.channel)}`,
      avatarUrl: '',
      credentials: { channel_id: str(hook.channel_id), team_id: str(team.id) },
    };
  },
  discord: async (get, t): Promise<Identity> => {
    const hook = obj(t.extras.webhook);
    const none = NONE;
    if (!str(hook.channel_id)) return { ...none, incomplete: 'No channel was chosen. Reconnect and pick the server and channel on the Discord screen.' };
    const u = await get('/users/@me', t.accessToken);
    return {
      externalId: `${str(hook.guild_id)}:${str(hook.channel_id)}`,
      username: str(hook.name) || str(u.username),
      displayName: str(u.global_name) || str(u.username),
      avatarUrl: '',
      credentials: { channel_id: str(hook.channel_id), guild_id: str(hook.guild_id), webhook_id: str(hook.id), webhook_token: str(hook.token) },
    };
  },
  mastodon: async (get, t): Promise<Identity> => {
    const u = await get('/api/v1/accounts/verify_credentials', t.accessToken);
    return { externalId: str(u.id), username: str(u.acct) || str(u.username), displayName: str(u.display_name), avatarUrl: str(u.avatar), credentials: {} };
  },
};
