import type { Platform } from '@spa/vocabulary';

/**
 * The claim that one posting of an evergreen series is recycled: a document named after the posting
 * (`<post id>:<posted_at ms>`), inserted uniquely, that fixes the new post's id, text and time. Whoever
 * handles the posting's event (again, or on another replica) creates exactly that post.
 */
export interface RecycleClaim {
  id: string;
  workspaceId: number;
  /** The series' original post (every recycle points at it). */
  originalId: number;
  /** The post whose posting this recycle follows. */
  sourcePostId: number;
  newPostId: number;
  /** 1 for the first recycle of the original, then 2, 3… */
  sequence: number;
  body: string;
  /** Null: no free slot (the recycled post is a draft). */
  scheduledAt: Date | null;
  claimedAt: Date;
  /** Set once the recycled post is stored: a later delivery of the posting changes nothing (even if that post was deleted since). */
  createdAt: Date | null;
}

export interface RecycleStore {
  /** Inserts the claim unless its posting already has one; answers the stored claim (this one or the earlier). */
  claim(claim: RecycleClaim): Promise<RecycleClaim>;
  get(id: string): Promise<RecycleClaim | null>;
  markCreated(id: string, at: Date): Promise<void>;
  /** Every recycle of an original, in sequence order. */
  history(workspaceId: number, originalId: number): Promise<RecycleClaim[]>;
}

/** The generation service as recycling needs it: a fresh wording in the workspace's voice. */
export interface GenerationPort {
  rewrite(input: { workspaceId: number; platform: Platform; topic: string; angle: string }): Promise<string>;
}
