import type { Connection } from '@spa/mongo';
import type { PlatformStyle } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import type { PlatformStyleStore, StoredPlatformStyle } from '../domain/platform-styles.js';
import { revisionSchema } from './models.js';
import { RevisionLog, type RevisionDoc } from './revisions.js';

/** One revision's state: the fields ever set (camelCase, as the style type names them) and when. */
interface PlatformStyleStateDoc {
  fields: Partial<PlatformStyle>;
  updated_at: Date;
}

const fromState = (s: PlatformStyleStateDoc): StoredPlatformStyle => ({ fields: s.fields, updatedAt: new Date(s.updated_at) });
const toState = (s: StoredPlatformStyle): PlatformStyleStateDoc => ({ fields: s.fields, updated_at: s.updatedAt });

/** Platform styles as numbered revisions per workspace and platform (`platform_style_revisions`, key = the platform, so revision ids carry the workspace). */
export class MongoPlatformStyleStore implements PlatformStyleStore {
  private readonly log: RevisionLog<PlatformStyleStateDoc>;

  constructor(connection: Connection) {
    const model = connection.model<RevisionDoc<object>>('PlatformStyleRevision', revisionSchema('platform_style_revisions'));
    this.log = new RevisionLog<PlatformStyleStateDoc>(model, (platform) => `The ${platform} style`, true);
  }

  async get(workspaceId: number, platform: Platform): Promise<StoredPlatformStyle | null> {
    const state = await this.log.latest(workspaceId, platform);
    return state ? fromState(state) : null;
  }

  async all(workspaceId: number): Promise<Map<Platform, StoredPlatformStyle>> {
    const latest = await this.log.latestOfWorkspace(workspaceId);
    return new Map([...latest].map(([platform, state]) => [platform as Platform, fromState(state)]));
  }

  async change(workspaceId: number, platform: Platform, change: (current: StoredPlatformStyle | null) => StoredPlatformStyle): Promise<StoredPlatformStyle> {
    const next = await this.log.change(workspaceId, platform, (current) => toState(change(current ? fromState(current) : null)));
    return fromState(next!);
  }

  async remove(workspaceId: number, platform: Platform): Promise<boolean> {
    return (await this.log.remove(workspaceId, platform)) !== null;
  }
}
