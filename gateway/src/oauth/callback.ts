import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import express, { type Request, type Response } from 'express';
import type { Clients } from '../clients.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: Response, status: number, title: string, message: string): void {
  res
    .status(status)
    .set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head>` +
        `<body><h1>${escape(title)}</h1><p>${escape(message)}</p>` +
        '<p><a href="/dashboard/accounts">Back to the dashboard</a></p>' +
        '</body></html>',
    );
}

const one = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 4096) : '');

/**
 * `GET /oauth/{platform}/callback`: where a platform sends the user back after authorization. Public
 * (no API key; outside /api/v1): the single-use state it carries is the credential. Answers a small
 * page saying which account was connected, or why nothing was.
 */
export function oauthCallbackRouter(clients: Clients, logger: Logger): express.Router {
  const router = express.Router();
  router.get('/oauth/:platform/callback', async (req: Request, res: Response) => {
    const platform = one(req.params.platform);
    try {
      const r = await clients.accounts.completeConnect({
        platform,
        state: one(req.query.state),
        code: one(req.query.code),
        error: one(req.query.error),
        errorDescription: one(req.query.error_description),
      });
      const who = r.displayName && r.displayName !== r.username ? `${r.displayName} (${r.username})` : r.username;
      page(res, 200, `${r.platform} account connected`, `${who} is ${r.reconnected ? 'reconnected' : 'connected'} (social account ${r.socialAccountId}). You can close this page.`);
    } catch (err) {
      if (err instanceof AppError && err.code !== 'INTERNAL_ERROR') {
        page(res, err.code === 'SERVICE_UNAVAILABLE' ? 503 : 400, 'Nothing was connected', err.message);
        return;
      }
      logger.error({ platform, error: err instanceof Error ? err.message : String(err) }, 'oauth callback failed');
      page(res, 500, 'Nothing was connected', 'Something went wrong on our side; try connecting again.');
    }
  });
  return router;
}
