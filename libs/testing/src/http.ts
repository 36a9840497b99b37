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

let nextAddress = 0;
/** A client source address not used before by this process: 127.<pid-derived>.<n>.<m>. */
export function freshClientAddress(): string {
  nextAddress += 1;
  return `127.${(process.pid % 200) + 20}.${Math.floor(nextAddress / 250) % 250}.${(nextAddress % 250) + 2}`;
}
