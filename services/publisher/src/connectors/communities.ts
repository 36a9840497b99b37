import type { TargetAccount } from './types.js';

/** A place an account can post into (a channel, a chat), as its platform lists it. */
export interface Community {
  id: string;
  name: string;
  /** text_channel, announcement_channel (Discord); public_channel, private_channel (Slack); channel, group, supergroup (Telegram). */
  kind: string;
  /** The one the account posts to (its channel_id / chat_id). */
  current: boolean;
}

/** A connector that can list an account's communities. */
export interface CommunitiesSource {
  communities(target: TargetAccount): Promise<Community[]>;
}

/** At most this many communities are listed (pages are followed until then). */
export const MAX_COMMUNITIES = 1000;
