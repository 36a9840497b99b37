import { BlockList, isIP } from 'node:net';

/** An address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Where a request to an address a user gave must never connect (unless private targets are allowed): loopback, private,
 * link-local (cloud metadata 169.254.169.254 and fd00:ec2::254 included), carrier-grade NAT,
 * multicast, reserved and documentation ranges. IPv4-mapped IPv6 addresses are checked as IPv4.
 */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');

/** True for an address such a request may not reach; anything that is not a plain IP address counts as forbidden. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL's host as an IP address when it is one (WHATWG parsing has already normalised 0177.0.0.1, 2130706433, …). */
export function literalAddress(url: URL): ResolvedAddress | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  return family === 0 ? undefined : { address: host, family: family as 4 | 6 };
}

/** Checks a URL without resolving it (https only, unless private targets are allowed); returns the parsed URL or a problem naming the field `url`. */
export function checkUrl(raw: string, allowPrivate: boolean): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'url must be an absolute https URL' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return { problem: 'url must use https' };
  if (url.username || url.password) return { problem: 'url must not contain credentials' };
  if (raw.length > 2048) return { problem: 'url must be at most 2048 characters' };
  if (!allowPrivate) {
    const literal = literalAddress(url);
    if (literal && isForbiddenAddress(literal.address)) return { problem: `url must not point at a loopback, private, link-local or metadata address (${literal.address})` };
    if (!literal && (url.hostname === 'localhost' || url.hostname.endsWith('.localhost'))) return { problem: 'url must not point at localhost' };
  }
  return { url };
}

/** The address to connect to, or a problem when any resolved address is forbidden (or none was found). */
export function pickAddress(addresses: ResolvedAddress[], allowPrivate: boolean): { address: ResolvedAddress } | { problem: string } {
  const first = addresses[0];
  if (!first) return { problem: 'url host has no address' };
  const bad = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
  if (bad) return { problem: `url host resolves to a forbidden address (${bad.address})` };
  return { address: first };
}
