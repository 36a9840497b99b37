import type { Platform } from '@spa/vocabulary';
import { twitterConnector } from './twitter.js';
import type { Connector } from './types.js';

/** Where each platform's API lives: its real base URL, or the sandbox (`<sandbox>/<platform>`). */
export type BaseUrls = Partial<Record<Platform, string>>;

/** The connector of every supported platform, each at its base URL (the real API unless overridden). */
export function connectors(baseUrls: BaseUrls = {}): Partial<Record<Platform, Connector>> {
  return {
    twitter: twitterConnector(baseUrls.twitter),
  };
}

/** Base URLs that send every platform to the loopback sandbox at `sandboxUrl`. */
export function sandboxBaseUrls(sandboxUrl: string, platforms: readonly Platform[]): BaseUrls {
  return Object.fromEntries(platforms.map((p) => [p, `${sandboxUrl}/${p}`]));
}
