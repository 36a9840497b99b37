import http from 'node:http';

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface HttpOptions {
  method?: string;
  token?: string;
  /** A value to send as JSON, or a raw string/Buffer sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Source address (any of 127.0.0.0/8), so tests can act as distinct client IPs. */
  localAddress?: string;
}

/** One HTTP request with node:http (so the client's source address can be chosen). */
export function request(baseUrl: string, path: string, opts: HttpOptions = {}): Promise<HttpResponse> {
  const url = new URL(path, baseUrl);
  const raw = opts.body === undefined ? undefined : typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = { ...(raw !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (raw !== undefined) headers['content-length'] = String(Buffer.byteLength(raw));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: opts.method ?? (raw === undefined ? 'GET' : 'POST'), headers, localAddress: opts.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (raw !== undefined) req.write(raw);
    req.end();
  });
}

/** The second octet of this process's client addresses (20-219): pid-derived until a block is claimed. */
let addressBlock = (process.pid % 200) + 20;
let nextAddress = 0;

/**
 * A client source address not used before by this process: 127.<block>.<n>.<m> (62,500 of them per block). The
 * gateway limits requests per client address: a test file given a stack of its own has a rate-limit prefix of its
 * own too, but files that share one stack share its limits, so each claims a block of its own (useClientAddressBlock).
 */
export function freshClientAddress(): string {
  nextAddress += 1;
  return `127.${addressBlock}.${Math.floor(nextAddress / 250) % 250}.${(nextAddress % 250) + 2}`;
}

/** Gives this process block `block` (0-199) of client addresses, which no other test file on the same gateway holds. */
export function useClientAddressBlock(block: number): void {
  if (!Number.isInteger(block) || block < 0 || block >= 200) throw new Error(`client address block ${block}: 0-199`);
  addressBlock = block + 20;
  nextAddress = 0;
}
