import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '@spa/errors';
import compression from 'compression';
import express, { type Request, type Response, type NextFunction } from 'express';

/** Where the web app's build lands (dashboard/dist), seen from gateway/dist/dashboard. */
export const DEFAULT_BUNDLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dashboard/dist');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/**
 * Serves the built web app: hashed assets for a year, and index.html (never cached) for every other
 * path, so that a page's address can be reloaded or shared (client-side routing).
 */
export function staticBundle(dir: string): express.Router {
  const router = express.Router();
  const index = path.join(dir, 'index.html');
  router.use((_req: Request, res: Response, next: NextFunction) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    next();
  });
  // The bundle is text (scripts, styles, the page): compressed for any browser that accepts it.
  router.use(compression());
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.use('/assets', (req: Request) => {
    throw new AppError('NOT_FOUND', `No such dashboard asset: ${req.path}`);
  });
  router.get(/.*/, (_req: Request, res: Response, next: NextFunction) => {
    if (!existsSync(index)) {
      next();
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
