import { useState } from 'preact/hooks';
import { call, type ApiError } from '../api';
import { Badge, Card, Empty, ErrorAlert, When, asApiError, useLoad } from '../components/ui';

interface AccountsPage {
  social_accounts: Array<{ id: number; platform: string; username: string; sandbox: boolean; status: string; created_at: string }>;
  platforms: Array<{ platform: string; connect_url: string | null }>;
  sandbox_connect: boolean;
}

const LABELS: Record<string, string> = {
  twitter: 'X (Twitter)', linkedin: 'LinkedIn', youtube: 'YouTube', instagram: 'Instagram', threads: 'Threads', pinterest: 'Pinterest',
  tiktok: 'TikTok', bluesky: 'Bluesky', mastodon: 'Mastodon', facebook: 'Facebook', google_business: 'Google Business', discord: 'Discord',
  telegram: 'Telegram', tumblr: 'Tumblr', slack: 'Slack',
};
export const platformLabel = (p: string): string => LABELS[p] ?? p;

export function AccountsPage() {
  const page = useLoad(() => call<AccountsPage>('GET', '/social-accounts'));
  const [platform, setPlatform] = useState('twitter');
  const [username, setUsername] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [announce, setAnnounce] = useState('');
  const act = async (run: () => Promise<AccountsPage>, message: string) => {
    try {
      page.set(await run());
      setError(null);
      setAnnounce(message);
    } catch (err) {
      setError(asApiError(err));
    }
  };
  const data = page.data;
  const flows = data?.platforms.filter((p) => p.connect_url) ?? [];
  return (
    <>
      <h1>Connected accounts</h1>
      <p class="sr-only" role="status">
        {announce}
      </p>
      <ErrorAlert error={page.error ?? error} />
      {data && flows.length > 0 && (
        <Card title="Connect an account">
          <ul class="connect-grid">
            {flows.map((p) => (
              <li key={p.platform}>
                <a class="button" href={p.connect_url!}>
                  Connect {platformLabel(p.platform)}
                </a>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {data?.sandbox_connect && (
        <Card title="Connect a sandbox account">
          <p class="hint">A sandbox account publishes to the platform sandbox, never to the real network: use it to try posting end to end.</p>
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act(() => call<AccountsPage>('POST', '/social-accounts/sandbox', { platform, username }), `Connected sandbox ${platformLabel(platform)} account ${username}`).then(() => setUsername(''));
            }}
          >
            <label>
              Platform
              <select value={platform} onChange={(e) => setPlatform(e.currentTarget.value)}>
                {(data?.platforms ?? []).map((p) => (
                  <option key={p.platform} value={p.platform}>
                    {platformLabel(p.platform)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Username
              <input required maxLength={100} value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
            </label>
            <button type="submit" class="button button-primary">
              Connect sandbox account
            </button>
          </form>
        </Card>
      )}
      <Card title="Accounts">
        {!data ? (
          <p aria-busy="true">Loading…</p>
        ) : data.social_accounts.length === 0 ? (
          <Empty>No connected accounts yet.</Empty>
        ) : (
          <ul class="rows" aria-label="Connected accounts">
            {data.social_accounts.map((a) => (
              <li key={a.id} class="row">
                <div>
                  <strong>{platformLabel(a.platform)}</strong> <span class="muted">@{a.username}</span>
                  <div class="hint">
                    id {a.id} · connected <When at={a.created_at} />
                  </div>
                </div>
                <div class="row-end">
                  {a.sandbox && <Badge tone="neutral">sandbox</Badge>}
                  <Badge tone={a.status === 'connected' ? 'ok' : 'bad'}>{a.status}</Badge>
                  {a.status === 'connected' && (
                    <button
                      type="button"
                      class="button button-small"
                      aria-label={`Disconnect ${platformLabel(a.platform)} @${a.username}`}
                      onClick={() => {
                        if (window.confirm(`Disconnect ${platformLabel(a.platform)} @${a.username}? Its scheduled posts will not publish.`))
                          void act(() => call<AccountsPage>('DELETE', `/social-accounts/${a.id}`), `Disconnected @${a.username}`);
                      }}
                    >
                      Disconnect
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
