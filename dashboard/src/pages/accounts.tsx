import { useState } from 'preact/hooks';
import { call, type ApiError } from '../api';
import { Badge, Card, Empty, ErrorAlert, When, asApiError, useLoad } from '../components/ui';

interface AccountsPage {
  social_accounts: Array<{ id: number; platform: string; username: string; display_name: string | null; sandbox: boolean; status: string; disconnected_reason: string | null; created_at: string }>;
  platforms: Array<{ platform: string; connect: 'oauth' | 'credentials' | null }>;
  sandbox_connect: boolean;
}

const LABELS: Record<string, string> = {
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  instagram: 'Instagram',
  threads: 'Threads',
  pinterest: 'Pinterest',
  tiktok: 'TikTok',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  facebook: 'Facebook',
  google_business: 'Google Business',
  discord: 'Discord',
  telegram: 'Telegram',
  tumblr: 'Tumblr',
  slack: 'Slack',
};
export const platformLabel = (p: string): string => LABELS[p] ?? p;

/** Bluesky (handle + app password) and Telegram (bot token + chat): checked with the platform before anything is stored. */
function CredentialForms({ act }: { act: (run: () => Promise<AccountsPage>, message: string) => Promise<boolean> }) {
  const [bsky, setBsky] = useState({ identifier: '', app_password: '', pds_url: '' });
  const [tg, setTg] = useState({ bot_token: '', chat_id: '' });
  return (
    <>
      <Card title="Connect Bluesky">
        <p class="hint">Use an app password (Bluesky → Settings → Privacy and security → App passwords), never your account password.</p>
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const body = { platform: 'bluesky', identifier: bsky.identifier, app_password: bsky.app_password, ...(bsky.pds_url ? { pds_url: bsky.pds_url } : {}) };
            void act(() => call<AccountsPage>('POST', '/social-accounts/credentials', body), `Connected Bluesky ${bsky.identifier}`).then(
              (ok) => ok && setBsky({ identifier: '', app_password: '', pds_url: '' }),
            );
          }}
        >
          <label>
            Handle
            <input required maxLength={253} autoComplete="username" placeholder="alice.bsky.social" value={bsky.identifier} onInput={(e) => setBsky({ ...bsky, identifier: e.currentTarget.value })} />
          </label>
          <label>
            App password
            <input required type="password" maxLength={100} autoComplete="off" value={bsky.app_password} onInput={(e) => setBsky({ ...bsky, app_password: e.currentTarget.value })} />
          </label>
          <label>
            PDS (optional)
            <input type="url" maxLength={2048} placeholder="https://bsky.social" value={bsky.pds_url} onInput={(e) => setBsky({ ...bsky, pds_url: e.currentTarget.value })} />
          </label>
          <button type="submit" class="button button-primary">
            Connect Bluesky
          </button>
        </form>
      </Card>
      <Card title="Connect Telegram">
        <p class="hint">Create a bot with @BotFather, make it an administrator of your channel (allowed to post), then enter its token and the channel.</p>
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => call<AccountsPage>('POST', '/social-accounts/credentials', { platform: 'telegram', ...tg }), `Connected Telegram ${tg.chat_id}`).then(
              (ok) => ok && setTg({ bot_token: '', chat_id: '' }),
            );
          }}
        >
          <label>
            Bot token
            <input required type="password" maxLength={200} autoComplete="off" value={tg.bot_token} onInput={(e) => setTg({ ...tg, bot_token: e.currentTarget.value })} />
          </label>
          <label>
            Chat
            <input required maxLength={40} placeholder="@channelname or -100…" value={tg.chat_id} onInput={(e) => setTg({ ...tg, chat_id: e.currentTarget.value })} />
          </label>
          <button type="submit" class="button button-primary">
            Connect Telegram
          </button>
        </form>
      </Card>
    </>
  );
}

export function AccountsPage() {
  const page = useLoad(() => call<AccountsPage>('GET', '/social-accounts'));
  const [platform, setPlatform] = useState('twitter');
  const [username, setUsername] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [announce, setAnnounce] = useState('');
  const act = async (run: () => Promise<AccountsPage>, message: string): Promise<boolean> => {
    try {
      page.set(await run());
      setError(null);
      setAnnounce(message);
      return true;
    } catch (err) {
      setError(asApiError(err));
      return false;
    }
  };
  const data = page.data;
  const flows = data?.platforms.filter((p) => p.connect === 'oauth' && p.platform !== 'mastodon') ?? [];
  const [instance, setInstance] = useState('');
  /** Starts the platform's OAuth flow for this workspace, then hands the browser to the platform. */
  const startConnect = async (platform: string, instanceUrl?: string) => {
    try {
      const r = await call<{ authorization_url: string }>('POST', '/social-accounts/connect', { platform, ...(instanceUrl ? { instance_url: instanceUrl } : {}) });
      setAnnounce(`Opening ${platformLabel(platform)}…`);
      window.location.assign(r.authorization_url);
    } catch (err) {
      setError(asApiError(err));
    }
  };
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
                <button type="button" class="button" onClick={() => void startConnect(p.platform)}>
                  Connect {platformLabel(p.platform)}
                </button>
              </li>
            ))}
          </ul>
          <p class="hint">You sign in on the platform and come back here; nothing is connected until you approve there.</p>
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void startConnect('mastodon', instance);
            }}
          >
            <label>
              Mastodon instance
              <input required type="url" maxLength={2048} placeholder="https://mastodon.social" value={instance} onInput={(e) => setInstance(e.currentTarget.value)} />
            </label>
            <button type="submit" class="button">
              Connect Mastodon
            </button>
          </form>
        </Card>
      )}
      {data && <CredentialForms act={act} />}
      {data?.sandbox_connect && (
        <Card title="Connect a sandbox account">
          <p class="hint">A sandbox account publishes to the platform sandbox, never to the real network: use it to try posting end to end.</p>
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act(() => call<AccountsPage>('POST', '/social-accounts/sandbox', { platform, username }), `Connected sandbox ${platformLabel(platform)} account ${username}`).then(() =>
                setUsername(''),
              );
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
                    {a.display_name && a.display_name !== a.username ? ` · ${a.display_name}` : ''}
                  </div>
                  {a.disconnected_reason && <div class="hint">{a.disconnected_reason}</div>}
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
