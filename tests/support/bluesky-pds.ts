import { randomBytes } from 'node:crypto';
import { startProcess } from '@spa/testing';

/** A real Bluesky PDS and PLC directory in their own process (tests/support/bluesky-pds-server.ts). */
export interface LocalPds {
  url: string;
  /** An XRPC call: query parameters, and a JSON body (POST) when given. */
  xrpc(method: string, params?: Record<string, string>, init?: { body?: unknown; token?: string }): Promise<{ status: number; body: any }>;
  /** A new account (handle `<name>.test`) with its password and a signed-in session. */
  createAccount(name: string): Promise<{ did: string; handle: string; password: string; accessJwt: string }>;
  stop(): Promise<void>;
}

export async function startLocalPds(): Promise<LocalPds> {
  const proc = await startProcess('bluesky-pds', 'tests/support/bluesky-pds-server.ts', {}, 90_000);
  const url = `http://${proc.address}`;
  const xrpc: LocalPds['xrpc'] = async (method, params = {}, init = {}) => {
    const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}/xrpc/${method}?${new URLSearchParams(params)}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    url,
    xrpc,
    async createAccount(name) {
      const password = randomBytes(12).toString('hex');
      const answer = await xrpc('com.atproto.server.createAccount', {}, { body: { handle: `${name}.test`, email: `${name}@example.test`, password } });
      if (answer.status !== 200) throw new Error(`createAccount: ${JSON.stringify(answer.body)}`);
      const { accessJwt, did, handle } = answer.body as { accessJwt: string; did: string; handle: string };
      return { did, handle, password, accessJwt };
    },
    stop: async () => {
      await proc.stop();
    },
  };
}
