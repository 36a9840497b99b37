import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { createClient, type PromiseClient } from '@spa/grpc';

/** One long-lived gRPC client per backend service, shared by every request. */
export interface Clients {
  accounts: PromiseClient<AccountsServiceClient>;
  posts: PromiseClient<PostsServiceClient>;
}

export function createClients(config: { ACCOUNTS_ADDR: string; POSTS_ADDR: string; GRPC_DEADLINE_MS: number }): Clients {
  const defaults = { deadlineMs: config.GRPC_DEADLINE_MS };
  return {
    accounts: createClient(AccountsServiceClient, config.ACCOUNTS_ADDR, defaults),
    posts: createClient(PostsServiceClient, config.POSTS_ADDR, defaults),
  };
}

export function closeClients(clients: Clients): void {
  clients.accounts.close();
  clients.posts.close();
}
