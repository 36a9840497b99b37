import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import type { RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

const RELAYED = new Set(['GET', 'HEAD', 'PUT']);

/**
 * Relays `/media/<r2_key>` (outside /api/v1, no API key) to the media service's HTTP server,
 * streaming both ways (never buffering a file): GET/HEAD read a stored file (public read by its
 * unguessable key), PUT receives a presigned upload (its URL signature is the authorisation).
 */
export function mediaRelay(target: string, logger: Logger): RequestHandler {
  return createProxyMiddleware({
    target,
    pathFilter: (path, req) => path.startsWith('/media/') && RELAYED.has(req.method ?? ''),
    // Uploads of up to 1 GB take as long as the client needs; an idle socket still times out.
    proxyTimeout: 0,
    on: {
      error: (err, req, res) => {
        logger.warn({ err, method: req.method, url: req.url }, 'media relay failed');
        if (!('writeHead' in res)) return void (res as Socket).destroy();
        const response = res as ServerResponse;
        if (response.headersSent) return void response.destroy();
        const body = JSON.stringify(new AppError('SERVICE_UNAVAILABLE', 'The media service is unavailable; retry shortly').toEnvelope());
        response.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      },
    },
  }) as unknown as RequestHandler;
}
