import type { PostHistory, VoiceProfileStore, VoiceSource } from './ports.js';
import { learnVoiceProfile, VOICE_SAMPLE_LIMIT, type VoiceProfile } from './voice-profile.js';

/**
 * Voice profiles, cached in the generation database: a cached profile younger than `maxAgeMs` is
 * used as is; an older one (or `refresh`) is learned again from the workspace's posted and approved
 * posts. Recomputations of one workspace in one process share one promise.
 */
export class VoiceProfiles implements VoiceSource {
  private readonly inFlight = new Map<number, Promise<VoiceProfile>>();

  constructor(private readonly deps: { store: VoiceProfileStore; history: PostHistory; maxAgeMs: number; now?: () => Date }) {}

  async profile(workspaceId: number, opts: { refresh?: boolean } = {}): Promise<VoiceProfile> {
    const now = this.now();
    if (!opts.refresh) {
      const cached = await this.deps.store.find(workspaceId);
      if (cached && now.getTime() - cached.updatedAt.getTime() < this.deps.maxAgeMs) return cached;
    }
    const running = this.inFlight.get(workspaceId);
    if (running) return running;
    const learning = this.learn(workspaceId).finally(() => this.inFlight.delete(workspaceId));
    this.inFlight.set(workspaceId, learning);
    return learning;
  }

  private async learn(workspaceId: number): Promise<VoiceProfile> {
    const bodies = await this.deps.history.voiceSamples(workspaceId, VOICE_SAMPLE_LIMIT);
    const profile = learnVoiceProfile(bodies, this.now());
    await this.deps.store.save(workspaceId, profile);
    return profile;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
