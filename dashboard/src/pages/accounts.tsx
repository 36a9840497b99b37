import { useEffect, useState } from 'preact/hooks';
import { call } from '../api';
import { SendButton, SendForm } from '../components/send';
import { Badge, Card, Empty, LoadState, When, useLoad } from '../components/ui';

interface Account {
  id: number;
  platform: string;
  username: string;
  display_name: string | null;
  sandbox: boolean;
  status: string;
  disconnected_reason: string | null;
  created_at: string;
  token_expires_at: string | null;
  health: 'ok' | 'expiring' | 'reauth_required' | 'disconnected';
  last_refresh: { at: string; outcome: string; error: string | null } | null;
  last_publish_error: { class: string; at: string } | null;
}
interface AccountsPage {
  social_accounts: Account[];
  platforms: Array<{ platform: string; connect: 'oauth' | 'credentials' | null }>;
  sandbox_connect: boolean;
}

const HEALTH_LABELS: Record<string, string> = { expiring: 'expiring soon', reauth_required: 'reauthorize', disconnected: 'disconnected', ok: 'ok' };
const PUBLISH_ERRORS: Record<string, string> = {
  expired: 'its authorization had expired',
  revoked: 'the platform refused its authorization',
  rejected: 'the platform refused the post',
  rate_limited: 'rate limited by the platform',
  transient: 'the platform could not be reached',
};

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
function CredentialForms({ act }: { act: (run: () => Promise<AccountsPage>, message: string) => Promise<string> }) {
  const [bsky, setBsky] = useState({ identifier: '', app_password: '', pds_url: '' });
  const [tg, setTg] = useState({ bot_token: '', chat_id: '' });
  return (
    <>
      <Card title="Connect Bluesky">
        <p class="hint">Use an app password (Bluesky → Settings → Privacy and security → App passwords), never your account password.</p>
        <SendForm
          class="inline-form"
          run={async () => {
            const body = { platform: 'bluesky', identifier: bsky.identifier, app_password: bsky.app_password, ...(bsky.pds_url ? { pds_url: bsky.pds_url } : {}) };
            const done = await act(() => call<AccountsPage>('POST', '/social-accounts/credentials', body), `Connected Bluesky ${bsky.identifier}`);
            setBsky({ identifier: '', app_password: '', pds_url: '' });
            return done;
          }}
        >
          <label>
            Handle
            <input
              id="connect-bluesky"
              required
              maxLength={253}
              autoComplete="username"
              placeholder="alice.bsky.social"
              value={bsky.identifier}
              onInput={(e) => setBsky({ ...bsky, identifier: e.currentTarget.value })}
            />
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
        </SendForm>
      </Card>
      <Card title="Connect Telegram">
        <p class="hint">Create a bot with @BotFather, make it an administrator of your channel (allowed to post), then enter its token and the channel.</p>
        <SendForm
          class="inline-form"
          run={async () => {
            const done = await act(() => call<AccountsPage>('POST', '/social-accounts/credentials', { platform: 'telegram', ...tg }), `Connected Telegram ${tg.chat_id}`);
            setTg({ bot_token: '', chat_id: '' });
            return done;
          }}
        >
          <label>
            Bot token
            <input id="connect-telegram" required type="password" maxLength={200} autoComplete="off" value={tg.bot_token} onInput={(e) => setTg({ ...tg, bot_token: e.currentTarget.value })} />
          </label>
          <label>
            Chat
            <input required maxLength={40} placeholder="@channelname or -100…" value={tg.chat_id} onInput={(e) => setTg({ ...tg, chat_id: e.currentTarget.value })} />
          </label>
          <button type="submit" class="button button-primary">
            Connect Telegram
          </button>
        </SendForm>
      </Card>
    </>
  );
}

export function AccountsPage() {
  const page = useLoad(() => call<AccountsPage>('GET', '/social-accounts'));
  const [platform, setPlatform] = useState('twitter');
  const [username, setUsername] = useState('');
  const act = async (run: () => Promise<AccountsPage>, message: string): Promise<string> => {
    page.set(await run());
    return message;
  };
  const data = page.data;
  const flows = data?.platforms.filter((p) => p.connect === 'oauth' && p.platform !== 'mastodon') ?? [];
  const [instance, setInstance] = useState('');
  /** Starts the platform's OAuth flow for this workspace, then hands the browser to the platform. */
  const startConnect = async (platform: string, instanceUrl?: string) => {
    const r = await call<{ authorization_url: string }>('POST', '/social-accounts/connect', { platform, ...(instanceUrl ? { instance_url: instanceUrl } : {}) });
    window.location.assign(r.authorization_url);
    return `Opening ${platformLabel(platform)}: approve the connection there to come back here`;
  };
  /** Reconnecting an account: the way it connects, ready to use (the sandbox form filled in, the platform's button or form focused). */
  const reconnect = (a: Account) => {
    if (a.sandbox && data?.sandbox_connect) {
      setPlatform(a.platform);
      setUsername(a.username);
    }
    const target = document.getElementById(a.sandbox ? 'connect-sandbox' : `connect-${a.platform}`);
    target?.scrollIntoView({ block: 'center' });
    target?.focus();
  };
  // Arriving with #reconnect-<id> (the Posts page's Reconnect): that account's way to connect.
  useEffect(() => {
    const id = /^#reconnect-(\d+)$/.exec(location.hash)?.[1];
    const account = id ? data?.social_accounts.find((a) => a.id === Number(id)) : undefined;
    if (account) reconnect(account);
  }, [data !== null]);
  return (
    <>
      <h1>Connected accounts</h1>
      {data && flows.length > 0 && (
        <Card title="Connect an account">
          <ul class="connect-grid">
            {flows.map((p) => (
              <li key={p.platform}>
                <SendButton run={() => startConnect(p.platform)} id={`connect-${p.platform}`}>
                  Connect {platformLabel(p.platform)}
                </SendButton>
              </li>
            ))}
          </ul>
          <p class="hint">You sign in on the platform and come back here; nothing is connected until you approve there.</p>
          <SendForm class="inline-form" run={() => startConnect('mastodon', instance)}>
            <label>
              Mastodon instance
              <input id="connect-mastodon" required type="url" maxLength={2048} placeholder="https://mastodon.social" value={instance} onInput={(e) => setInstance(e.currentTarget.value)} />
            </label>
            <button type="submit" class="button">
              Connect Mastodon
            </button>
          </SendForm>
        </Card>
      )}
      {data && <CredentialForms act={act} />}
      {data?.sandbox_connect && (
        <Card title="Connect a sandbox account">
          <p class="hint">A sandbox account publishes to the platform sandbox, never to the real network: use it to try posting end to end.</p>
          <SendForm
            label="Connect a sandbox account"
            class="inline-form"
            run={async () => {
              const done = await act(() => call<AccountsPage>('POST', '/social-accounts/sandbox', { platform, username }), `Connected sandbox ${platformLabel(platform)} account @${username}`);
              setUsername('');
              return done;
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
              <input id="connect-sandbox" required maxLength={100} value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
            </label>
            <button type="submit" class="button button-primary">
              Connect sandbox account
            </button>
          </SendForm>
        </Card>
      )}
      <Card title="Accounts">
        <LoadState load={page} />
        {!data ? null : data.social_accounts.length === 0 ? (
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
                  {a.health === 'expiring' && a.token_expires_at && (
                    <div class="hint">
                      Its authorization cannot be renewed without you and ends <When at={a.token_expires_at} />: reconnect it before then.
                    </div>
                  )}
                  {a.last_refresh?.outcome === 'failed' && a.health === 'ok' && (
                    <div class="hint">
                      The last renewal could not reach {platformLabel(a.platform)} (<When at={a.last_refresh.at} />
                      ); it is tried again on its own.
                    </div>
                  )}
                  {a.last_publish_error && (
                    <div class="hint">
                      Last failed publish: {PUBLISH_ERRORS[a.last_publish_error.class] ?? a.last_publish_error.class} (<When at={a.last_publish_error.at} />)
                    </div>
                  )}
                </div>
                <div class="row-end">
                  {a.sandbox && <Badge tone="neutral">sandbox</Badge>}
                  <Badge tone={a.status === 'connected' ? 'ok' : 'bad'}>{a.status}</Badge>
                  {a.health !== 'ok' && a.health !== 'disconnected' && <Badge tone={a.health === 'expiring' ? 'warn' : 'bad'}>{HEALTH_LABELS[a.health]}</Badge>}
                  {a.status === 'connected' && a.health === 'expiring' && (
                    <button type="button" class="button button-small" aria-label={`Reconnect ${platformLabel(a.platform)} @${a.username}`} onClick={() => reconnect(a)}>
                      Reconnect
                    </button>
                  )}
                  {a.status === 'connected' ? (
                    <SendButton
                      label={`Disconnect ${platformLabel(a.platform)} @${a.username}`}
                      confirm={`Disconnect ${platformLabel(a.platform)} @${a.username}? Its scheduled posts will not publish.`}
                      run={() => act(() => call<AccountsPage>('DELETE', `/social-accounts/${a.id}`), `Disconnected @${a.username}`)}
                    >
                      Disconnect
                    </SendButton>
                  ) : (
                    <button type="button" class="button button-small" aria-label={`Reconnect ${platformLabel(a.platform)} @${a.username}`} onClick={() => reconnect(a)}>
                      Reconnect
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
