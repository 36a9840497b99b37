import type { DashboardDeps } from './dashboard-ports.js';
import type { ApiKey, Site } from './model.js';

export interface ApiKeyView {
  key: ApiKey;
  createdByEmail: string;
  lastUsedAt: Date | null;
}

/** The workspace's active API key as the dashboard shows it (no secret), or null when it has none. */
export async function getActiveApiKey(deps: DashboardDeps, workspaceId: number): Promise<ApiKeyView | null> {
  const key = await deps.dashboard.findActiveApiKey(workspaceId);
  if (!key) return null;
  const [creator, lastUsedAt] = await Promise.all([deps.users.get(key.userId), deps.dashboard.lastApiKeyUse(key.id)]);
  return { key, createdByEmail: creator?.email ?? '', lastUsedAt };
}

export const listSites = (deps: DashboardDeps, workspaceId: number): Promise<Site[]> => deps.dashboard.listSites(workspaceId);

/**
 * Records that a key authenticated, at most once a minute per key per process (the dashboard shows the
 * last use to the minute; authentication itself stays one read).
 */
export function apiKeyUseRecorder(deps: DashboardDeps, onError: (err: unknown) => void, everyMs = 60_000): (keyId: number) => void {
  const recorded = new Map<number, number>();
  return (keyId) => {
    const now = deps.clock.now();
    const last = recorded.get(keyId);
    if (last !== undefined && now.getTime() - last < everyMs) return;
    recorded.set(keyId, now.getTime());
    if (recorded.size > 10_000) recorded.delete(recorded.keys().next().value as number);
    deps.dashboard.recordApiKeyUse(keyId, now).catch(onError);
  };
}
