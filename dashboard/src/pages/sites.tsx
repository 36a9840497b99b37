import { useState } from 'preact/hooks';
import { call } from '../api';
import { SendButton, SendForm } from '../components/send';
import { Badge, Card, Empty, LoadState, SecretOnce, When, useLoad } from '../components/ui';

interface Site {
  id: number;
  name: string;
  url: string;
  cms: string;
  created_at: string;
  last_push_at: string | null;
  unmatched_pushes: number;
  rules: Rule[];
  recent_pushes: Push[];
}

interface Rule {
  id: number;
  platform: string;
  trigger: string;
  schedule_mode: string;
  enabled: boolean;
}

interface Push {
  url: string;
  title: string;
  last_pushed_at: string;
  consumed_at: string | null;
}

interface SitesData {
  sites: Site[];
  cms_options: string[];
  platforms: string[];
}

/** A site's rules (enable, disable, remove, add) and its 10 latest pushes. */
function SiteDetails({ site, platforms, onChange }: { site: Site; platforms: string[]; onChange: (d: SitesData) => void }) {
  const [platform, setPlatform] = useState(platforms[0] ?? 'twitter');
  const [mode, setMode] = useState('draft');
  const run = async (method: 'POST' | 'DELETE', path: string, body?: unknown) => {
    onChange(await call<SitesData>(method, path, body));
  };
  return (
    <div class="stack site-details" data-site={site.id}>
      <h3>Rules</h3>
      {site.rules.length === 0 ? (
        <Empty>No rules: pushed articles make no posts (they count as unmatched).</Empty>
      ) : (
        <ul class="rows" aria-label={`Rules of ${site.name}`}>
          {site.rules.map((r) => (
            <li key={r.id} class="row" data-rule={r.id}>
              <div>
                <strong>{r.platform}</strong>{' '}
                <span class="muted">
                  on {r.trigger}, as {r.schedule_mode === 'scheduled' ? 'next free slot' : 'draft'}
                </span>{' '}
                <Badge tone={r.enabled ? 'ok' : 'neutral'}>{r.enabled ? 'enabled' : 'disabled'}</Badge>
              </div>
              <div>
                <SendButton run={() => run('POST', `/site-rules/${r.id}/${r.enabled ? 'disable' : 'enable'}`)} label={`${r.enabled ? 'Disable' : 'Enable'} the ${r.platform} rule of ${site.name}`}>
                  {r.enabled ? 'Disable' : 'Enable'}
                </SendButton>{' '}
                <SendButton run={() => run('DELETE', `/site-rules/${r.id}`)} label={`Remove the ${r.platform} rule of ${site.name}`}>
                  Remove
                </SendButton>
              </div>
            </li>
          ))}
        </ul>
      )}
      <SendForm class="inline-form" run={() => run('POST', `/sites/${site.id}/rules`, { platform, schedule_mode: mode })} label={`Add a rule to ${site.name}`}>
        <label>
          Platform
          <select value={platform} onChange={(e) => setPlatform(e.currentTarget.value)}>
            {platforms.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Make
          <select value={mode} onChange={(e) => setMode(e.currentTarget.value)}>
            <option value="draft">a draft</option>
            <option value="scheduled">a post in the next free slot</option>
          </select>
        </label>
        <button type="submit" class="button button-small">
          Add rule
        </button>
      </SendForm>
      <h3>Recent pushes</h3>
      {site.recent_pushes.length === 0 ? (
        <Empty>No article pushed yet.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Articles {site.name} pushed, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Article</th>
                <th scope="col">Last pushed</th>
                <th scope="col">Posts made</th>
              </tr>
            </thead>
            <tbody>
              {site.recent_pushes.map((p) => (
                <tr key={p.url}>
                  <td data-label="Article">
                    <a href={p.url} rel="noopener noreferrer" target="_blank">
                      {p.title}
                    </a>
                  </td>
                  <td data-label="Last pushed">
                    <When at={p.last_pushed_at} />
                  </td>
                  <td data-label="Posts made">{p.consumed_at ? <When at={p.consumed_at} /> : 'not yet (or no rule matched)'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function SitesPage() {
  const page = useLoad(() => call<SitesData>('GET', '/sites'));
  const [cms, setCms] = useState('custom');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const create = async () => {
    const r = await call<SitesData & { token: string }>('POST', '/sites', { name, url, cms });
    page.set(r);
    setToken(r.token);
    setName('');
    setUrl('');
    return `Registered ${name}: copy its token below.`;
  };
  return (
    <>
      <h1>Sites</h1>
      <Card title="Register a site">
        <SendForm class="stack" run={create}>
          <label for="site-name">Name</label>
          <input id="site-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="site-url">URL</label>
          <input id="site-url" type="url" required placeholder="https://blog.example.com" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
          <label for="site-cms">CMS</label>
          <select id="site-cms" value={cms} onChange={(e) => setCms(e.currentTarget.value)}>
            {(page.data?.cms_options ?? ['custom']).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <button type="submit" class="button button-primary">
            Register site
          </button>
        </SendForm>
        {token && (
          <SecretOnce
            label="Site Connection token"
            secret={token}
            note="Shown once. Your site sends it as Authorization: Bearer <token> to push content (POST /api/v1/site_pushes); it can do nothing else."
          />
        )}
      </Card>
      <Card title="Connected sites">
        <LoadState load={page} />
        {!page.data ? null : page.data.sites.length === 0 ? (
          <Empty>No sites yet.</Empty>
        ) : (
          <ul class="rows" aria-label="Sites">
            {page.data.sites.map((s) => (
              <li key={s.id} class="row">
                <div>
                  <strong>{s.name}</strong> <span class="muted">{s.url}</span>
                  <div class="hint">
                    CMS {s.cms} · registered <When at={s.created_at} />
                  </div>
                </div>
                <dl class="facts compact">
                  <dt>Last push</dt>
                  <dd>{s.last_push_at ? <When at={s.last_push_at} /> : 'none yet'}</dd>
                  <dt>Unmatched pushes</dt>
                  <dd>{s.unmatched_pushes}</dd>
                </dl>
                <SiteDetails site={s} platforms={page.data!.platforms} onChange={page.set} />
              </li>
            ))}
          </ul>
        )}
      </Card>
      <p class="hint">
        Each enabled rule turns a pushed article into a post for its platform, written in your voice with the article's link (a draft, or the next free slot), when the workspace has a connected
        account there. A site token only pushes articles to this workspace; it cannot read or publish anything.
      </p>
    </>
  );
}
