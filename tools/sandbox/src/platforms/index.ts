import type { SandboxPlatform } from '../router.js';
import { bluesky } from './bluesky.js';
import { discord } from './discord.js';
import { facebook } from './facebook.js';
import { instagram } from './instagram.js';
import { linkedin } from './linkedin.js';
import { googleBusiness } from './google-business.js';
import { mastodon } from './mastodon.js';
import { pinterest } from './pinterest.js';
import { slack } from './slack.js';
import { telegram } from './telegram.js';
import { threads } from './threads.js';
import { tiktok } from './tiktok.js';
import { tumblr } from './tumblr.js';
import { twitter } from './twitter.js';
import { youtube } from './youtube.js';

/** Every platform stand-in the sandbox serves. */
export const PLATFORM_SANDBOXES: SandboxPlatform[] = [twitter, linkedin, youtube, instagram, threads, facebook, pinterest, tiktok, bluesky, mastodon, googleBusiness, discord, telegram, tumblr, slack];
