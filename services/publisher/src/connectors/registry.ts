import type { Platform } from '@spa/vocabulary';
import { blueskyConnector } from './bluesky.js';
import { discordConnector } from './discord.js';
import { facebookConnector } from './facebook.js';
import { instagramConnector } from './instagram.js';
import { linkedinConnector } from './linkedin.js';
import { googleBusinessConnector } from './google-business.js';
import { mastodonConnector } from './mastodon.js';
import { pinterestConnector } from './pinterest.js';
import { slackConnector } from './slack.js';
import { telegramConnector } from './telegram.js';
import { threadsConnector } from './threads.js';
import { tiktokConnector } from './tiktok.js';
import { tumblrConnector } from './tumblr.js';
import { twitterConnector } from './twitter.js';
import { youtubeConnector } from './youtube.js';
import type { Connector } from './types.js';

/** Where each platform's API lives: its real base URL, or the sandbox (`<sandbox>/<platform>`). */
export type BaseUrls = Partial<Record<Platform, string>>;

/** The connector of every supported platform, each at its base URL (the real API unless overridden). */
export function connectors(baseUrls: BaseUrls = {}): Partial<Record<Platform, Connector>> {
  return {
    twitter: twitterConnector(baseUrls.twitter),
    linkedin: linkedinConnector(baseUrls.linkedin),
    youtube: youtubeConnector(baseUrls.youtube),
    instagram: instagramConnector(baseUrls.instagram),
    threads: threadsConnector(baseUrls.threads),
    facebook: facebookConnector(baseUrls.facebook),
    pinterest: pinterestConnector(baseUrls.pinterest),
    tiktok: tiktokConnector(baseUrls.tiktok),
    bluesky: blueskyConnector(baseUrls.bluesky),
    mastodon: mastodonConnector(baseUrls.mastodon),
    google_business: googleBusinessConnector(baseUrls.google_business),
    discord: discordConnector(baseUrls.discord),
    telegram: telegramConnector(baseUrls.telegram),
    tumblr: tumblrConnector(baseUrls.tumblr),
    slack: slackConnector(baseUrls.slack),
  };
}

/** Base URLs that send every platform to the loopback sandbox at `sandboxUrl`. */
export function sandboxBaseUrls(sandboxUrl: string, platforms: readonly Platform[]): BaseUrls {
  return Object.fromEntries(platforms.map((p) => [p, `${sandboxUrl}/${p}`]));
}
