import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import { openMedia } from '../domain/manage-media.js';
import type { MediaDeps } from '../domain/ports.js';
import { receivePresignedPut } from '../domain/presigned-upload.js';
import { verifyPresignedPut } from '../domain/presign-signature.js';

const PREFIX = '/media/';
/** The rest of a refused upload up to this size is read and dropped, so the client (through the relay) gets the answer. */
const DRAIN_LIMIT = 1024 * 1024;

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  if (!req.complete) {
    // A refused upload still being sent: a short rest is read and dropped (closing at once would reset the
    // connection under a sender still writing, which may then never see this answer); a long one is cut off.
    const declared = Number(req.headers['content-length']);
    if (!req.destroyed && Number.isFinite(declared) && declared <= DRAIN_LIMIT) req.resume();
    else headers.connection = 'close';
  }
  res.writeHead(status, headers).end(text);
}

function sendError(req: IncomingMessage, res: ServerResponse, err: AppError): void {
  sendJson(req, res, err.httpStatus, err.toEnvelope());
}

/**
 * The media service's own HTTP server, reached through the gateway's /media relay: public reads by
 * key (GET/HEAD /media/<r2_key>) and, on local disk, the presigned PUTs (PUT /media/<r2_key>?X-Spa-...).
 */
export function createMediaHttpServer(deps: MediaDeps, opts: { signingKey: string; logger: Logger }): Server {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://media.local');
    if (!url.pathname.startsWith(PREFIX)) throw new AppError('NOT_FOUND', `No such path: ${url.pathname}`);
    let key: string;
    try {
      key = decodeURIComponent(url.pathname.slice(PREFIX.length));
    } catch {
      // Not valid percent-encoding: no key was ever made so.
      throw new AppError('NOT_FOUND', 'No media file under this key');
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const found = await openMedia(deps, key);
      if (!found) throw new AppError('NOT_FOUND', 'No media file under this key');
      res.writeHead(200, {
        'content-type': found.contentType,
        'content-length': found.size,
        // Keys are never reused: a stored object never changes.
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      });
      if (req.method === 'HEAD') {
        found.body.destroy();
        res.end();
        return;
      }
      await pipeline(found.body, res);
      return;
    }
    if (req.method === 'PUT') {
      if (deps.storage.kind !== 'local') throw new AppError('NOT_FOUND', 'Presigned uploads go straight to the object store');
      const check = verifyPresignedPut(
        opts.signingKey,
        key,
        Object.fromEntries(url.searchParams),
        { contentType: req.headers['content-type'], contentLength: req.headers['content-length'] },
        deps.clock.now(),
      );
      if (!check.ok) {
        sendJson(req, res, check.status, { error: { message: `Upload refused: ${check.reason}`, code: 'UPLOAD_REFUSED' } });
        return;
      }
      const record = await receivePresignedPut(deps, key, req);
      sendJson(req, res, 200, { r2_key: record.key, size_bytes: record.sizeBytes, content_type: record.contentType });
      return;
    }
    res.setHeader('allow', 'GET, HEAD, PUT');
    sendJson(req, res, 405, { error: { message: `${req.method} is not allowed here`, code: 'METHOD_NOT_ALLOWED' } });
  };
  return createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof AppError && err.code !== 'INTERNAL_ERROR') return sendError(req, res, err);
      opts.logger.error({ err, method: req.method, url: req.url }, 'media http request failed');
      sendError(req, res, new AppError('INTERNAL_ERROR', 'Internal error'));
    });
  });
}
