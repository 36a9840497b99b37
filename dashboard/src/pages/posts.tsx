import { call } from '../api';
import { Badge, Card, Empty, LoadState, Link, When, useLoad } from '../components/ui';
import { platformLabel } from './accounts';
import { platformReason } from './platform-error';

interface PostAccount {
  social_account_id: number;
  /** The account's connection now (the dashboard's addition): false when it must be reconnected to publish. */
  account_connected?: boolean;
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

/** A target's failure: the platform's reason in words, the raw record folded away for support. */
function TargetError({ error, platform }: { error: string; platform: string }) {
  const reason = platformReason(error, platformLabel(platform));
  return (
    <div class="error-text">
      {reason.text}
      {reason.raw && (
        <details class="raw-error">
          <summary>Technical details</summary>
          <code>{reason.raw}</code>
        </details>
      )}
    </div>
  );
}

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
        {/* The post's error joins its targets' (each said in words beside its platform); shown alone when no target has one. */}
        {post.post_error && !post.post_accounts.some((a) => a.platform_error) && <p class="error-text">{platformReason(post.post_error).text}</p>}
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
            {a.platform_error && <TargetError error={a.platform_error} platform={a.platform} />}
            {a.account_connected === false && (
              <div>
                <span class="muted">The connection to this account ended.</span>{' '}
                <Link to={`accounts#reconnect-${a.social_account_id}`} label={`Reconnect ${platformLabel(a.platform)}${a.username ? ` @${a.username}` : ''}`}>
                  Reconnect
                </Link>
              </div>
            )}
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
      <LoadState load={page} />
      {!d ? null : (
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
