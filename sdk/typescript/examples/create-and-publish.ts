// Creates a post for one connected account, publishes it now and waits for the outcome.
//   SPA_BASE_URL=http://127.0.0.1:8080/api/v1 SPA_API_KEY=sk_live_… SPA_ACCOUNT_ID=12 node create-and-publish.ts
import { ApiError, createApiClient, unwrap } from '@spa/sdk';

const api = createApiClient({ baseUrl: process.env.SPA_BASE_URL ?? 'http://127.0.0.1:8080/api/v1', apiKey: process.env.SPA_API_KEY ?? '' });
const accountId = Number(process.env.SPA_ACCOUNT_ID);

try {
  const { post } = await unwrap(api.POST('/posts', { body: { post: { body: 'Hello from the SDK', post_accounts: [{ social_account_id: accountId }] } } }));
  console.log(`created post ${post.id} (${post.status})`);
  await unwrap(api.POST('/posts/{post_id}/publishes', { params: { path: { post_id: post.id } }, body: {} }));
  for (let i = 0; i < 60; i++) {
    const { post: now } = await unwrap(api.GET('/posts/{id}', { params: { path: { id: post.id } } }));
    if (now.status !== 'publishing') {
      console.log(
        `post ${now.id}: ${now.status}`,
        now.post_accounts.map((a) => `${a.platform}: ${a.permalink ?? a.platform_error}`),
      );
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
} catch (err) {
  if (err instanceof ApiError) console.error(`${err.status} ${err.code}: ${err.message}`, err.details);
  else throw err;
  process.exitCode = 1;
}
