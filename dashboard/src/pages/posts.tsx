import { call } from '../api';
import { Badge, Card, Empty, ErrorAlert, When, useLoad } from '../components/ui';
import { platformLabel } from './accounts';

interface PostAccount {
  platform: string;
  platform_status?: string | null;
  platform_error?: string | null;
  permalink?: string | null;
  username?: string | null;
}
interface Post {
  id: number;
  status: string;
  scheduled_at: string | null;
  posted_at: string | null;
  post_error: string | null;
  created_at: string;
  body?: string;
  post_contents?: Array<{ body?: string }>;
  post_accounts: PostAccount[];
}
interface PostsPage {
  queue: Post[];
  queue_total: number;
  recent: Post[];
}

const TONE: Record<string, 'ok' | 'warn' | 'bad' | 'neutral'> = { posted: 'ok', partial: 'warn', failed: 'bad', scheduled: 'neutral', publishing: 'warn' };
const text = (p: Post) => p.body || p.post_contents?.[0]?.body || '';

function PostRow({ post }: { post: Post }) {
  return (
    <li class="row post">
      <div class="post-main">
        <div>
          <Badge tone={TONE[post.status] ?? 'neutral'}>{post.status.replace('_', ' ')}</Badge> <span class="muted">#{post.id}</span>{' '}
          {post.posted_at ? (
            <>
              posted <When at={post.posted_at} />
            </>
          ) : post.scheduled_at ? (
            <>
              scheduled <When at={post.scheduled_at} />
            </>
          ) : (
            <>
              created <When at={post.created_at} />
            </>
          )}
        </div>
        <p class="post-text">{text(post).slice(0, 280) || <span class="muted">(no text)</span>}</p>
        {post.post_error && <p class="error-text">{post.post_error}</p>}
      </div>
      <ul class="targets" aria-label={`Targets of post ${post.id}`}>
        {post.post_accounts.map((a, i) => (
          <li key={i}>
            <strong>{platformLabel(a.platform)}</strong>
            {a.platform_status && <> · {a.platform_status}</>}
            {a.permalink && /^https?:\/\//.test(a.permalink) && (
              <>
                {' '}
                ·{' '}
                <a href={a.permalink} target="_blank" rel="noopener noreferrer">
                  view post
                </a>
              </>
            )}
            {a.platform_error && <div class="error-text">{a.platform_error}</div>}
          </li>
        ))}
      </ul>
    </li>
  );
}

export function PostsPage() {
  const page = useLoad(() => call<PostsPage>('GET', '/posts'));
  const d = page.data;
  return (
    <>
      <h1>Posts at a glance</h1>
      <ErrorAlert error={page.error} />
      {!d ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <Card title={`Queue (${d.queue_total})`}>
            {d.queue.length === 0 ? (
              <Empty>Nothing queued.</Empty>
            ) : (
              <ul class="rows">
                {d.queue.map((p) => (
                  <PostRow key={p.id} post={p} />
                ))}
              </ul>
            )}
          </Card>
          <Card title="Recent outcomes">
            {d.recent.length === 0 ? (
              <Empty>No post has been published yet.</Empty>
            ) : (
              <ul class="rows">
                {d.recent.map((p) => (
                  <PostRow key={p.id} post={p} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </>
  );
}
