import type { VoiceProfile } from './voice-profile.js';

/** What generation reads from posts. */
export interface PostHistory {
  /** Bodies of the workspace's latest posts (any status), newest first, for near-duplicate checks. */
  recentBodies(workspaceId: number, limit: number): Promise<string[]>;
  /** Bodies of posted and approved posts, newest first, for the voice profile. */
  voiceSamples(workspaceId: number, limit: number): Promise<string[]>;
}

/** Where learned voice profiles are cached (collection `voice_profiles`). */
export interface VoiceProfileStore {
  find(workspaceId: number): Promise<VoiceProfile | undefined>;
  /** Replaces the workspace's profile; concurrent saves of the same recomputation are harmless (last one wins). */
  save(workspaceId: number, profile: VoiceProfile): Promise<void>;
}

/** The workspace's voice profile, as the writing reads it. */
export interface VoiceSource {
  profile(workspaceId: number): Promise<VoiceProfile>;
}
