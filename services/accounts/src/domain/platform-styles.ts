import { invalidParameters } from '@spa/errors';
import { defaultStyle, styleProblems, type PlatformStyle } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import type { AccountsDeps } from './ports.js';
import { getWorkspace } from './workspaces.js';

/** A platform's stored style: only the fields that differ from nothing, i.e. those ever set, and when. */
export interface StoredPlatformStyle {
  fields: Partial<PlatformStyle>;
  updatedAt: Date;
}

/** Where styles live (accounts' `platform_style_revisions`, exact under concurrent changes). */
export interface PlatformStyleStore {
  get(workspaceId: number, platform: Platform): Promise<StoredPlatformStyle | null>;
  all(workspaceId: number): Promise<Map<Platform, StoredPlatformStyle>>;
  change(workspaceId: number, platform: Platform, change: (current: StoredPlatformStyle | null) => StoredPlatformStyle): Promise<StoredPlatformStyle>;
  /** Back to the defaults; false when nothing was stored. */
  remove(workspaceId: number, platform: Platform): Promise<boolean>;
}

export interface PlatformStylesDeps extends AccountsDeps {
  styles: PlatformStyleStore;
}

export interface PlatformStyleView extends PlatformStyle {
  platform: Platform;
  /** False while every field is the default. */
  customized: boolean;
  updatedAt: Date | null;
}

/** A patch: absent fields keep their value; `callToActionText: null` lets generation write the call to action again. */
export type PlatformStylePatch = Partial<PlatformStyle>;

const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

function view(platform: Platform, stored: StoredPlatformStyle | null | undefined): PlatformStyleView {
  const defaults = defaultStyle(platform);
  const style = { ...defaults, ...defined(stored?.fields ?? {}) };
  const customized = (Object.keys(defaults) as Array<keyof PlatformStyle>).some((k) => style[k] !== defaults[k]);
  return { platform, ...style, customized, updatedAt: stored?.updatedAt ?? null };
}

export function parsePlatform(platform: string): Platform {
  if (!(PLATFORMS as readonly string[]).includes(platform)) throw invalidParameters([`platform: must be one of ${PLATFORMS.join(', ')} (got ${JSON.stringify(platform)})`]);
  return platform as Platform;
}

export async function listPlatformStyles(deps: PlatformStylesDeps, workspaceId: number): Promise<PlatformStyleView[]> {
  await getWorkspace(deps, workspaceId);
  const stored = await deps.styles.all(workspaceId);
  return PLATFORMS.map((p) => view(p, stored.get(p)));
}

export async function getPlatformStyle(deps: PlatformStylesDeps, workspaceId: number, platform: string): Promise<PlatformStyleView> {
  const p = parsePlatform(platform);
  await getWorkspace(deps, workspaceId);
  return view(p, await deps.styles.get(workspaceId, p));
}

/** Merges the fields present into the platform's style; every bad field is named at once and nothing is written then. */
export async function updatePlatformStyle(deps: PlatformStylesDeps, workspaceId: number, platform: string, patch: PlatformStylePatch): Promise<PlatformStyleView> {
  const p = parsePlatform(platform);
  const problems = styleProblems(p, patch);
  if (problems.length) throw invalidParameters(problems);
  await getWorkspace(deps, workspaceId);
  const changes = defined(patch);
  if (!Object.keys(changes).length) return view(p, await deps.styles.get(workspaceId, p));
  const at = deps.clock.now();
  return view(p, await deps.styles.change(workspaceId, p, (current) => ({ fields: { ...current?.fields, ...changes }, updatedAt: at })));
}

export async function resetPlatformStyle(deps: PlatformStylesDeps, workspaceId: number, platform: string): Promise<PlatformStyleView> {
  const p = parsePlatform(platform);
  await getWorkspace(deps, workspaceId);
  await deps.styles.remove(workspaceId, p);
  return view(p, null);
}
