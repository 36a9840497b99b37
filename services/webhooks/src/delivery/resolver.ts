import { lookup } from 'node:dns/promises';
import type { ResolvedAddress, Resolver } from '../domain/ports.js';

/** The system resolver (getaddrinfo), every address of the name. */
export const dnsResolver: Resolver = {
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const found = await lookup(hostname, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
};
