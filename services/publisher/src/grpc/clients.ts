import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { platformStatusCodec } from '@spa/contracts/codecs';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { createClient } from '@spa/grpc';
import type { Platform } from '@spa/vocabulary';
import type { AccountsPort, PostsPort } from '../domain/ports.js';
import { postToPublish } from './post-to-publish.js';

export function postsPort(address: string, mediaBaseUrl: string): PostsPort & { close(): void } {
  const client = createClient(PostsServiceClient, address, { deadlineMs: 10_000 });
  return {
    async getPost(workspaceId, postId) {
      const { post } = await client.getPost({ workspaceId, postId });
      return postToPublish(workspaceId, post!, mediaBaseUrl);
    },
    async recordResults(workspaceId, postId, outcomes) {
      await client.recordPublishResults({ workspaceId, postId, results: outcomes.map((o) => ({ ...o, state: platformStatusCodec.toProto(o.platformStatus), platformStatus: '' })) });
    },
    close: () => client.close(),
  };
}

export function accountsPort(address: string): AccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address, { deadlineMs: 10_000 });
  return {
    async targets(workspaceId, socialAccountIds) {
      const { accounts } = await client.getPublishingCredentials({ workspaceId, socialAccountIds });
      return accounts.map((a) => ({ socialAccountId: a.socialAccountId, platform: a.platform as Platform, username: a.username, credentials: a.credentials }));
    },
    async markDisconnected(workspaceId, socialAccountId) {
      await client.markDisconnected({ workspaceId, socialAccountId });
    },
    close: () => client.close(),
  };
}
