import { invalidParameters } from '@spa/errors';
import { checkPostOptions } from '@spa/platforms';
import { QUOTE_PLATFORMS, type QuotePlatform, type RunSettings, type ScheduleMode, type Target } from './model.js';
import type { AccountsPort } from './ports.js';

export const TOPIC_MAX = 500;
export const WATERMARK_MAX = 60;
export const CUTOFF_MIN = 1;
export const CUTOFF_MAX = 14;
export const CUTOFF_DEFAULT = 7;

/** A create request as it arrives (transport-neutral). */
export interface RunInput {
  topic: string;
  platformConfig: unknown;
  cutoffDays?: number | undefined;
  scheduleMode?: string | undefined;
  watermarkEnabled?: boolean | undefined;
  watermarkText?: string | undefined;
  watermarkEveryN?: number | undefined;
  dryRun?: boolean | undefined;
  contentPlanId?: number | undefined;
  pack?: string | undefined;
  /** A create with the key of an existing run answers that run (a caller's retry; content plans' resumed runs). */
  idempotencyKey?: string | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** The targets named by platform_config, with every structural problem (accounts are checked afterwards). */
function parseTargets(config: unknown, problems: string[]): Target[] {
  if (!isObject(config)) {
    problems.push('platform_config must be an object keyed by platform (instagram, pinterest)');
    return [];
  }
  const targets: Target[] = [];
  const keys = Object.keys(config);
  if (keys.length === 0) problems.push('platform_config must configure at least one platform (instagram, pinterest)');
  for (const key of keys) {
    const where = `platform_config.${key}`;
    const value = config[key];
    if (!(QUOTE_PLATFORMS as readonly string[]).includes(key)) {
      problems.push(`${where}: ${key} is not a Quote Week platform; use ${QUOTE_PLATFORMS.join(' or ')}`);
      continue;
    }
    if (!isObject(value)) {
      problems.push(`${where} must be an object with social_account_id`);
      continue;
    }
    const platform = key as QuotePlatform;
    const allowed = platform === 'pinterest' ? ['social_account_id', 'board_id', 'link'] : ['social_account_id', 'aspect'];
    for (const field of Object.keys(value)) if (!allowed.includes(field)) problems.push(`${where}.${field} is not a known field (allowed: ${allowed.join(', ')})`);
    if (!isId(value.social_account_id)) problems.push(`${where}.social_account_id must be a positive integer`);
    const target: Target = { platform, socialAccountId: isId(value.social_account_id) ? value.social_account_id : 0 };
    if (platform === 'instagram') {
      if (value.aspect !== undefined && value.aspect !== 'portrait' && value.aspect !== 'square') problems.push(`${where}.aspect must be portrait or square`);
      else target.aspect = (value.aspect as 'portrait' | 'square' | undefined) ?? 'portrait';
    } else {
      // The pins' board and link, checked as a post's metadata.board_id and .link are (they land there).
      const boardId = typeof value.board_id === 'string' ? value.board_id.trim() : value.board_id;
      if (boardId === undefined || boardId === '') problems.push(`${where}.board_id is required for Pinterest (the board the pins go to)`);
      if (value.link === undefined) problems.push(`${where}.link is required for Pinterest (an http(s) URL the pins link to)`);
      const wrong = checkPostOptions('pinterest', { board_id: boardId || undefined, link: value.link }, where);
      problems.push(...wrong);
      if (!wrong.length && boardId && value.link !== undefined) Object.assign(target, { boardId, link: value.link });
    }
    targets.push(target);
  }
  return targets;
}

/** An account's handle as a watermark: `@name`, cut to the watermark's limit. */
export function handleWatermark(username: string): string {
  return [...`@${username.trim().replace(/^@+/, '')}`].slice(0, WATERMARK_MAX).join('');
}

/**
 * Checks that each target names a connected account of the workspace on that platform; with `defaultMark`, gives
 * each target its account's @handle as the watermark of its cards.
 */
async function checkAccounts(accounts: AccountsPort, workspaceId: number, targets: Target[], problems: string[], defaultMark: boolean): Promise<void> {
  const ids = targets.map((t) => t.socialAccountId).filter((id) => id > 0);
  if (ids.length === 0) return;
  const found = await accounts.socialAccounts(workspaceId, ids);
  for (const t of targets) {
    if (!t.socialAccountId) continue;
    const where = `platform_config.${t.platform}.social_account_id`;
    const account = found.find((a) => a.id === t.socialAccountId);
    if (!account) problems.push(`${where} ${t.socialAccountId} is not a connected account of this workspace`);
    else if (account.platform !== t.platform) problems.push(`${where} ${t.socialAccountId} is a ${account.platform} account, not ${t.platform}`);
    else if (account.disconnected) problems.push(`${where} ${t.socialAccountId} is disconnected; reconnect it first`);
    else if (defaultMark) t.watermark = handleWatermark(account.username);
  }
}

/** Every problem of a create request at once (422 INVALID_PARAMETERS naming each field), or the run's settings. */
export async function validateRun(accounts: AccountsPort, workspaceId: number, input: RunInput): Promise<RunSettings> {
  const problems: string[] = [];
  const topic = (input.topic ?? '').trim();
  if (!topic) problems.push('topic is required');
  else if ([...topic].length > TOPIC_MAX) problems.push(`topic is ${[...topic].length} characters; the limit is ${TOPIC_MAX}`);
  const targets = parseTargets(input.platformConfig, problems);
  const cutoffDays = input.cutoffDays ?? CUTOFF_DEFAULT;
  if (!Number.isInteger(cutoffDays) || cutoffDays < CUTOFF_MIN || cutoffDays > CUTOFF_MAX) problems.push(`cutoff_days must be an integer from ${CUTOFF_MIN} to ${CUTOFF_MAX}`);
  const scheduleMode = input.scheduleMode ?? 'draft';
  if (scheduleMode !== 'draft' && scheduleMode !== 'scheduled') problems.push('schedule_mode must be draft or scheduled');
  const watermarkText = input.watermarkText?.trim() || undefined;
  if (watermarkText && [...watermarkText].length > WATERMARK_MAX) problems.push(`watermark_text is longer than ${WATERMARK_MAX} characters`);
  const watermarkEveryN = input.watermarkEveryN ?? 1;
  if (!Number.isInteger(watermarkEveryN) || watermarkEveryN < 1 || watermarkEveryN > 100) problems.push('watermark_every_n must be an integer from 1 to 100');
  if (input.pack !== undefined && (typeof input.pack !== 'string' || input.pack.length > 100)) problems.push('pack must be a string of at most 100 characters');
  if (input.contentPlanId !== undefined && !isId(input.contentPlanId)) problems.push('content_plan_id must be a positive integer');
  if (input.idempotencyKey !== undefined && (!input.idempotencyKey || input.idempotencyKey.length > 200)) problems.push('idempotency_key must be 1 to 200 characters');
  // Without watermark_text, each account's cards carry its @handle.
  await checkAccounts(accounts, workspaceId, targets, problems, !!input.watermarkEnabled && !watermarkText);
  if (problems.length) throw invalidParameters(problems);
  return {
    topic,
    pack: input.pack || undefined,
    platformConfig: input.platformConfig as Record<string, unknown>,
    targets,
    cutoffDays,
    scheduleMode: scheduleMode as ScheduleMode,
    watermarkEnabled: !!input.watermarkEnabled,
    watermarkText,
    watermarkEveryN,
    dryRun: !!input.dryRun,
    contentPlanId: input.contentPlanId,
  };
}
