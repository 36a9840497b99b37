import type { SandboxPlatform } from '../router.js';
import { bluesky } from './bluesky.js';
import { discord } from './discord.js';
import { googleBusiness } from './google-business.js';
import { mastodon } from './mastodon.js';
import { pinterest } from './pinterest.js';
import { slack } from './slack.js';
import { telegram } from './telegram.js';
import { tiktok } from './tiktok.js';
import { tumblr } from './tumblr.js';
import { twitter } from './twitter.js';

/** Every platform stand-in the sandbox serves. */
export const PLATFORM_SANDBOXES: SandboxPlatform[] = [twitter, pinterest, tiktok, bluesky, mastodon, googleBusiness, discord, telegram, tumblr, slack];
