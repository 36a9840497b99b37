import { checkPostOptions, isHttpUrl, postOptionProblems, postOptionsOf, type PostOptions } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import {
  CAROUSEL_PLATFORM,
  CHANNEL_FORMATS,
  MAX_ANGLES_PER_CHANNEL,
  MAX_CHANNELS_PER_PLAN,
  MAX_POSTS_PER_DAY,
  QUOTE_CARD_PLATFORMS,
  SCHEDULE_MODES,
  type Channel,
  type ChannelFormat,
  type ChannelInput,
  type ContentPlan,
  type PlanFields,
  type ScheduleMode,
} from './model.js';
import type { WorkspaceAccount } from './ports.js';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_NAME = 200;
const MAX_STRATEGY = 5_000;
const MAX_ANGLE = 300;
const MAX_SHORT_TEXT = 200;
const MAX_PLATFORM_CONFIGS_BYTES = 20_000;
/** Quote Week's limit for the watermark drawn on a card. */
const QUOTE_WATERMARK_MAX = 60;

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Problems with the plan-level fields that are present (all of them on create). */
export function planFieldProblems(f: PlanFields, creating: boolean): string[] {
  const problems: string[] = [];
  if (creating || f.name !== undefined) {
    if (f.name === undefined || !f.name.trim()) problems.push('content_plan.name is required');
    else if (f.name.length > MAX_NAME) problems.push(`content_plan.name must be at most ${MAX_NAME} characters`);
  }
  if (creating || f.scheduleDay !== undefined) {
    if (!isInt(f.scheduleDay, 0, 6)) problems.push('content_plan.schedule_day must be an integer from 0 (Sunday) to 6 (Saturday)');
  }
  if (creating || f.scheduleTime !== undefined) {
    if (!f.scheduleTime || !TIME.test(f.scheduleTime)) problems.push('content_plan.schedule_time must be HH:MM (24-hour)');
  }
  if (f.scheduleMode !== undefined && !SCHEDULE_MODES.includes(f.scheduleMode as ScheduleMode)) {
    problems.push(`content_plan.schedule_mode must be one of ${SCHEDULE_MODES.join(', ')}`);
  }
  if (f.contentStrategy !== undefined && f.contentStrategy.length > MAX_STRATEGY) {
    problems.push(`content_plan.content_strategy must be at most ${MAX_STRATEGY} characters`);
  }
  if (f.platformConfigs !== undefined) {
    const pc = f.platformConfigs;
    if (typeof pc !== 'object' || pc === null || Array.isArray(pc)) problems.push('content_plan.platform_configs must be an object keyed by platform');
    else {
      for (const [key, value] of Object.entries(pc)) {
        if (!PLATFORMS.includes(key as Platform)) problems.push(`content_plan.platform_configs.${key} is not a platform (${PLATFORMS.join(', ')})`);
        else if (typeof value !== 'object' || value === null || Array.isArray(value)) problems.push(`content_plan.platform_configs.${key} must be an object`);
        // The per-platform choices it gives its posts (board_id, link, title, privacy_level, …), checked as a post's are.
        else problems.push(...checkPostOptions(key as Platform, value as Record<string, unknown>, `content_plan.platform_configs.${key}`, { required: false }));
      }
      if (JSON.stringify(pc).length > MAX_PLATFORM_CONFIGS_BYTES) problems.push(`content_plan.platform_configs must be at most ${MAX_PLATFORM_CONFIGS_BYTES} bytes of JSON`);
    }
  }
  if (f.channels !== undefined && f.channels.length > MAX_CHANNELS_PER_PLAN) {
    problems.push(`content_plan.channels may hold at most ${MAX_CHANNELS_PER_PLAN} channels (got ${f.channels.length})`);
  }
  return problems;
}

/**
 * Checks the channels against their rules and the workspace's accounts (each must be a connected account of the
 * workspace on the channel's platform) and builds them with defaults. Problems name the channel index.
 */
export function buildChannels(inputs: ChannelInput[], accounts: WorkspaceAccount[], problems: string[]): Channel[] {
  const seen = new Set<number>();
  return inputs.map((c, i) => {
    const at = `content_plan.channels[${i}]`;
    const account = accounts.find((a) => a.id === c.socialAccountId);
    if (seen.has(c.socialAccountId)) problems.push(`${at}.social_account_id ${c.socialAccountId} is listed twice`);
    seen.add(c.socialAccountId);
    if (!account) problems.push(`${at}.social_account_id ${c.socialAccountId} is not a connected account of this workspace`);
    else if (account.disconnected) problems.push(`${at}.social_account_id ${c.socialAccountId} is disconnected; reconnect it first`);
    if (c.platform !== undefined && !PLATFORMS.includes(c.platform as Platform)) problems.push(`${at}.platform must be one of ${PLATFORMS.join(', ')}`);
    else if (c.platform !== undefined && account && account.platform !== c.platform) {
      problems.push(`${at}.platform is ${c.platform} but social_account_id ${c.socialAccountId} is a ${account.platform} account`);
    }
    if (c.format !== undefined && !CHANNEL_FORMATS.includes(c.format as ChannelFormat)) problems.push(`${at}.format must be one of ${CHANNEL_FORMATS.join(', ')}`);
    if (c.angles.length > MAX_ANGLES_PER_CHANNEL) problems.push(`${at}.angles may hold at most ${MAX_ANGLES_PER_CHANNEL} angles (got ${c.angles.length})`);
    c.angles.forEach((a, j) => {
      if (!a.trim() || a.length > MAX_ANGLE) problems.push(`${at}.angles[${j}] must be 1 to ${MAX_ANGLE} characters`);
    });
    if (c.postsPerDay !== undefined && !isInt(c.postsPerDay, 1, MAX_POSTS_PER_DAY)) problems.push(`${at}.posts_per_day must be an integer from 1 to ${MAX_POSTS_PER_DAY}`);
    if (c.watermarkEveryN !== undefined && !isInt(c.watermarkEveryN, 1, 100)) problems.push(`${at}.watermark_every_n must be an integer from 1 to 100`);
    const platform = account?.platform ?? (c.platform as Platform | undefined);
    const format = c.format ?? 'post';
    if (c.carouselEveryN !== undefined) {
      if (platform !== undefined && platform !== CAROUSEL_PLATFORM) problems.push(`${at}.carousel_every_n applies to LinkedIn channels only (this channel is ${platform})`);
      else if (!isInt(c.carouselEveryN, 1, MAX_POSTS_PER_DAY)) {
        problems.push(`${at}.carousel_every_n must be an integer from 1 to ${MAX_POSTS_PER_DAY} (every n-th post of the channel's run is a carousel)`);
      } else if (format !== 'post') problems.push(`${at}.carousel_every_n applies to channels of format post`);
    }
    if (format === 'quote_card' && platform !== undefined && !(QUOTE_CARD_PLATFORMS as readonly string[]).includes(platform)) {
      problems.push(`${at}.format quote_card is for ${QUOTE_CARD_PLATFORMS.join(' and ')} channels (Quote Week cards); this channel is ${platform}`);
    }
    if (platform === 'pinterest' && !c.boardId?.trim()) problems.push(`${at}.board_id is required for a Pinterest channel (the board its pins go to)`);
    // A board id as a post's metadata.board_id takes it (digits), on Pinterest channels only.
    else if (c.boardId?.trim() && platform !== undefined) for (const p of postOptionProblems(platform, { board_id: c.boardId.trim() })) problems.push(`${at}.${p.field}: ${p.message}`);
    if (format === 'quote_card' && c.watermarkEnabled && !c.watermarkText?.trim()) problems.push(`${at}.watermark_text is required when watermark_enabled is true`);
    if (format === 'quote_card' && c.watermarkText !== undefined && [...c.watermarkText.trim()].length > QUOTE_WATERMARK_MAX) {
      problems.push(`${at}.watermark_text must be at most ${QUOTE_WATERMARK_MAX} characters on a quote_card channel (it is drawn on the card)`);
    }
    for (const [field, value] of [
      ['quote_topic', c.quoteTopic],
      ['watermark_text', c.watermarkText],
    ] as const) {
      if (value !== undefined && value.length > MAX_SHORT_TEXT) problems.push(`${at}.${field} must be at most ${MAX_SHORT_TEXT} characters`);
    }
    return {
      socialAccountId: c.socialAccountId,
      platform: (account?.platform ?? c.platform) as Platform,
      format: (c.format ?? 'post') as ChannelFormat,
      boardId: c.boardId?.trim() || undefined,
      angles: c.angles.map((a) => a.trim()),
      postsPerDay: c.postsPerDay ?? 1,
      quoteTopic: c.quoteTopic,
      watermarkEnabled: c.watermarkEnabled ?? false,
      watermarkText: c.watermarkText,
      watermarkEveryN: c.watermarkEveryN,
      carouselEveryN: c.carouselEveryN,
      active: c.active ?? true,
    };
  });
}

/** The link a Pinterest Quote Week run of the plan gives its pins: `platform_configs.pinterest.link`. */
export function pinterestLink(platformConfigs: Record<string, unknown> | undefined): string | undefined {
  const link = (platformConfigs?.pinterest as Record<string, unknown> | undefined)?.link;
  return typeof link === 'string' ? link : undefined;
}

/**
 * Checks across fields of the plan as it will be saved: a plan with an active Pinterest quote_card channel names the
 * link its pins go to in `platform_configs.pinterest.link` (Pinterest pins carry a destination link; Quote Week
 * requires one).
 */
export function planProblems(plan: Pick<ContentPlan, 'channels' | 'platformConfigs'>): string[] {
  const needsLink = plan.channels.some((c) => c.active && c.format === 'quote_card' && c.platform === 'pinterest');
  if (!needsLink || isHttpUrl(pinterestLink(plan.platformConfigs))) return [];
  return ['content_plan.platform_configs.pinterest.link must be an http(s) URL: a Pinterest quote_card channel gives its pins this link'];
}

/**
 * The per-platform choices of the posts a channel's run creates, in the metadata the publisher reads them from: the
 * plan's `platform_configs.<platform>` options, and the channel's board on Pinterest.
 */
export function channelPostOptions(platformConfigs: Record<string, unknown> | undefined, channel: Pick<Channel, 'platform' | 'boardId'>): PostOptions {
  const config = platformConfigs?.[channel.platform];
  const given = typeof config === 'object' && config !== null && !Array.isArray(config) ? postOptionsOf(config) : {};
  return channel.boardId ? { ...given, board_id: channel.boardId } : given;
}
