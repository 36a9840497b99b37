import { sandboxBoardId } from '@spa/platforms';
import type { Route, SandboxRequest } from '../router.js';

/**
 * Identity and selection endpoints the connect flow reads that the publishing stand-ins do not serve:
 * Graph `/me/accounts` (the user's pages, each with its own page token and linked Instagram business
 * account), Threads `/me`, Pinterest `/v5/boards`, Google Business Profile accounts and locations.
 * Sandbox users named `*notoken*` have a page without a page token (a page reached through a Business
 * portfolio without the page-selection step); `*nopage*` users manage no page.
 */
const numericId = (account: string, salt: number) => {
  let h = salt;
  for (const c of account) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return String(100_000_000_000 + h);
};

function pages(platform: 'facebook' | 'instagram'): Route {
  return {
    method: 'GET',
    path: '/me/accounts',
    handle: (req: SandboxRequest, state) => {
      const account = req.account!;
      if (account.includes('nopage')) return { status: 200, body: { data: [], paging: {} } };
      const pageId = numericId(account, 7);
      const page: Record<string, unknown> = { id: pageId, name: `${account} page`, category: 'Brand', tasks: ['CREATE_CONTENT', 'MANAGE'] };
      // Page tokens derived from a long-lived user token do not expire.
      if (!account.includes('notoken')) page.access_token = state.oauth.issue(platform, account, 'access');
      page.instagram_business_account = { id: numericId(account, 11), username: account, profile_picture_url: `https://sandbox.invalid/avatars/${account}.jpg` };
      return { status: 200, body: { data: [page], paging: { cursors: { before: 'A', after: 'B' } } } };
    },
  };
}

export const IDENTITY_ROUTES: Record<string, Route[]> = {
  facebook: [pages('facebook')],
  instagram: [pages('instagram')],
  threads: [
    {
      method: 'GET',
      path: '/me',
      handle: (req) => ({
        status: 200,
        body: { id: `th-${req.account}`, username: req.account, name: req.account, threads_profile_picture_url: `https://sandbox.invalid/avatars/${req.account}.jpg` },
      }),
    },
  ],
  pinterest: [
    {
      method: 'GET',
      path: '/v5/boards',
      handle: (req) => ({ status: 200, body: { items: [{ id: sandboxBoardId(req.account ?? '', 1), name: `${req.account} board`, privacy: 'PUBLIC' }], bookmark: null } }),
    },
  ],
  google_business: [
    {
      method: 'GET',
      path: '/v1/accounts',
      handle: (req) => ({ status: 200, body: { accounts: [{ name: `accounts/acct-${req.account}`, accountName: `${req.account} business`, type: 'PERSONAL' }] } }),
    },
    {
      method: 'GET',
      path: '/v1/accounts/:account/locations',
      handle: (req) => ({ status: 200, body: { locations: [{ name: `locations/loc-${req.params.account!.replace(/^acct-/, '')}`, title: `${req.params.account} shop`, languageCode: 'en' }] } }),
    },
  ],
};
