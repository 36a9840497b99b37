import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrl, literalAddress, pickAddress, type ResolvedAddress } from './policy.js';

/** Why a guarded request gave nothing: the URL or its address is refused, or the answer was not what was asked for. */
export class UrlRefusedError extends Error {
  constructor(
    message: string,
    readonly reason: 'url' | 'address' | 'status' | 'size' | 'timeout' | 'network',
  ) {
    super(message);
    this.name = 'UrlRefusedError';
  }
}

export interface GuardedGetOptions {
  /** Plain http and private, loopback and link-local addresses allowed (local development and tests only). */
  allowPrivate: boolean;
  /** The whole exchange, body included. */
  timeoutMs: number;
  /** Largest body; a larger one is refused as soon as it is known to be larger. */
  maxBytes: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** DNS (every address of the name); the system resolver by default. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface GuardedResponse {
  /** Where the body came from, after redirects. */
  url: URL;
  status: number;
  contentType: string | undefined;
  /** The body in chunks, at most maxBytes in all, within the time limit. */
  body: AsyncIterable<Buffer>;
}

const systemResolve = async (hostname: string): Promise<ResolvedAddress[]> =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** A lookup that answers every name with the address already resolved and checked: no second DNS query, no rebinding. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

/** The checked address to connect to for `url`. */
async function addressOf(url: URL, opts: GuardedGetOptions): Promise<ResolvedAddress> {
  const literal = literalAddress(url);
  let addresses: ResolvedAddress[];
  try {
    addresses = literal ? [literal] : await (opts.resolve ?? systemResolve)(url.hostname);
  } catch {
    throw new UrlRefusedError(`url host ${url.hostname} has no address`, 'address');
  }
  const picked = pickAddress(addresses, opts.allowPrivate);
  if ('problem' in picked) throw new UrlRefusedError(picked.problem, 'address');
  return picked.address;
}

/**
 * GET of a URL a user gave, guarded: https only (unless private targets are allowed), every address the name
 * resolves to checked and the connection pinned to the checked one, each redirect checked the same way,
 * the size and the time of the whole exchange bounded. Refusals are UrlRefusedError naming the problem.
 */
export async function guardedGet(raw: string, opts: GuardedGetOptions): Promise<GuardedResponse> {
  const deadline = Date.now() + opts.timeoutMs;
  let target = raw;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 3); hop++) {
    const checked = checkUrl(target, opts.allowPrivate);
    if ('problem' in checked) throw new UrlRefusedError(checked.problem, 'url');
    const url = checked.url;
    const address = await addressOf(url, opts);
    const res = await send(url, address, opts, deadline);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      target = new URL(res.headers.location, url).href;
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new UrlRefusedError(`url answered HTTP ${status}`, 'status');
    }
    const length = Number(res.headers['content-length']);
    if (Number.isFinite(length) && length > opts.maxBytes) {
      res.destroy();
      throw new UrlRefusedError(`url's file is ${length} bytes, over the limit of ${opts.maxBytes}`, 'size');
    }
    return { url, status, contentType: res.headers['content-type']?.split(';')[0]?.trim().toLowerCase(), body: limited(res, opts.maxBytes, deadline) };
  }
  throw new UrlRefusedError(`url redirected more than ${opts.maxRedirects ?? 3} times`, 'url');
}

function send(url: URL, address: ResolvedAddress, opts: GuardedGetOptions, deadline: number): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: 'GET', headers: opts.headers ?? {}, lookup: pinnedLookup(address), agent: false });
    const timer = setTimeout(() => request.destroy(new UrlRefusedError(`url did not answer within ${opts.timeoutMs} ms`, 'timeout')), Math.max(deadline - Date.now(), 0));
    request.on('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    request.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof UrlRefusedError ? err : new UrlRefusedError(`url could not be fetched: ${err.message}`, 'network'));
    });
    request.end();
  });
}

/** The body, refused past `maxBytes` or past the deadline. */
async function* limited(res: http.IncomingMessage, maxBytes: number, deadline: number): AsyncGenerator<Buffer> {
  let total = 0;
  const timer = setTimeout(() => res.destroy(new UrlRefusedError('url took too long to send its file', 'timeout')), Math.max(deadline - Date.now(), 0));
  try {
    for await (const chunk of res) {
      const bytes = chunk as Buffer;
      total += bytes.length;
      if (total > maxBytes) throw new UrlRefusedError(`url's file is over the limit of ${maxBytes} bytes`, 'size');
      yield bytes;
    }
  } catch (err) {
    throw err instanceof UrlRefusedError ? err : new UrlRefusedError(`url's file could not be read: ${(err as Error).message}`, 'network');
  } finally {
    clearTimeout(timer);
    res.destroy();
  }
}
