// Prints every scheduled post, paging through GET /posts.
//   SPA_BASE_URL=http://127.0.0.1:8080/api/v1 SPA_API_KEY=sk_live_… node list-all-posts.ts
import { createApiClient } from '@spa/sdk';

const api = createApiClient({ baseUrl: process.env.SPA_BASE_URL ?? 'http://127.0.0.1:8080/api/v1', apiKey: process.env.SPA_API_KEY ?? '' });

let count = 0;
for await (const post of api.listAllPosts({ status: 'scheduled', sort: 'scheduled_at', sort_direction: 'asc' })) {
  console.log(`${post.id}\t${post.scheduled_at}\t${post.body.slice(0, 60)}`);
  count++;
}
console.log(`${count} scheduled posts`);
