import type { Platform } from '@spa/vocabulary';
import type { PlatformCapability } from './types.js';
import { twitter } from './capabilities/twitter.js';
import { linkedin } from './capabilities/linkedin.js';
import { youtube } from './capabilities/youtube.js';
import { instagram } from './capabilities/instagram.js';
import { threads } from './capabilities/threads.js';
import { pinterest } from './capabilities/pinterest.js';
import { tiktok } from './capabilities/tiktok.js';
import { bluesky } from './capabilities/bluesky.js';
import { mastodon } from './capabilities/mastodon.js';
import { facebook } from './capabilities/facebook.js';
import { googleBusiness } from './capabilities/google-business.js';
import { discord } from './capabilities/discord.js';
import { telegram } from './capabilities/telegram.js';
import { tumblr } from './capabilities/tumblr.js';
import { slack } from './capabilities/slack.js';

// One file per platform under capabilities/. Facts come from the platforms' documentation; each entry cites
// its confidence marks: [doc] platform docs, [code] open-source integrations (Postiz, Mixpost), [3p]
// commercial posting APIs' docs, [local] checked against a real server. Facts that were only
// [unverified] are marked "[unverified]" and set to the conservative value.
export const CAPABILITIES: Readonly<Record<Platform, PlatformCapability>> = {
  twitter,
  linkedin,
  youtube,
  instagram,
  threads,
  pinterest,
  tiktok,
  bluesky,
  mastodon,
  facebook,
  google_business: googleBusiness,
  discord,
  telegram,
  tumblr,
  slack,
};
