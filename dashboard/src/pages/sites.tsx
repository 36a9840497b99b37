import { useState } from 'preact/hooks';
import { call, type ApiError } from '../api';
import { Card, Empty, ErrorAlert, SecretOnce, When, asApiError, useLoad } from '../components/ui';

interface Site {
  id: number;
  name: string;
  url: string;
  cms: string;
  created_at: string;
  last_push_at: string | null;
  unmatched_pushes: number;
}

export function SitesPage() {
  const page = useLoad(() => call<{ sites: Site[]; cms_options: string[] }>('GET', '/sites'));
  const [cms, setCms] = useState('custom');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const r = await call<{ token: string; sites: Site[]; cms_options: string[] }>('POST', '/sites', { name, url, cms });
      page.set(r);
      setToken(r.token);
      setName('');
      setUrl('');
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    }
  };
  return (
    <>
      <h1>Sites</h1>
      <Card title="Register a site">
        <form class="stack" onSubmit={create}>
          <ErrorAlert error={error} />
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
        </form>
        {token && (
          <SecretOnce
            label="Site Connection token"
            secret={token}
            note="Shown once. Your site sends it as Authorization: Bearer <token> to push content (POST /api/v1/site_pushes); it can do nothing else."
          />
        )}
      </Card>
      <ErrorAlert error={page.error} />
      <Card title="Connected sites">
        {!page.data ? (
          <p aria-busy="true">Loading…</p>
        ) : page.data.sites.length === 0 ? (
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
              </li>
            ))}
          </ul>
        )}
      </Card>
      <p class="hint">Rules: a site token only pushes content to this workspace (drafts built from each push); it cannot read or publish anything.</p>
    </>
  );
}
