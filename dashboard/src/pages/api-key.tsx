import { useState } from 'preact/hooks';
import { call, type ApiError } from '../api';
import { Card, Empty, ErrorAlert, SecretOnce, When, asApiError, useLoad } from '../components/ui';

interface ApiKeyPage {
  api_key: { id: number; prefix: string | null; scopes: string[]; created_by: { user_id: number; email: string | null }; created_at: string; last_used_at: string | null } | null;
  available_scopes: string[];
  api_access: boolean;
  secret?: string;
}

export function ApiKeyPage() {
  const page = useLoad(() => call<ApiKeyPage>('GET', '/api-key'));
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const data = page.data;
  const act = async (run: () => Promise<ApiKeyPage>) => {
    setBusy(true);
    setError(null);
    try {
      const next = await run();
      page.set(next);
      setSecret(next.secret ?? null);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (scope: string) => {
    const next = new Set(chosen);
    if (next.has(scope)) next.delete(scope);
    else next.add(scope);
    setChosen(next);
  };
  return (
    <>
      <h1>API key</h1>
      <ErrorAlert error={page.error ?? error} />
      {secret && <SecretOnce label="Your new API key" secret={secret} note="Copy it now: it is shown once and cannot be shown again. Send it as Authorization: Bearer <key>." />}
      {!data ? (
        <p aria-busy="true">Loading…</p>
      ) : data.api_key ? (
        <Card title="Active key">
          <dl class="facts">
            <dt>Key</dt>
            <dd>
              <code>{data.api_key.prefix ? `${data.api_key.prefix}…` : `key ${data.api_key.id}`}</code>
            </dd>
            <dt>Scopes</dt>
            <dd>
              <ul class="chips" aria-label="Scopes">
                {data.api_key.scopes.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            </dd>
            <dt>Created by</dt>
            <dd>{data.api_key.created_by.email ?? `user ${data.api_key.created_by.user_id}`}</dd>
            <dt>Created</dt>
            <dd>
              <When at={data.api_key.created_at} />
            </dd>
            <dt>Last used</dt>
            <dd>{data.api_key.last_used_at ? <When at={data.api_key.last_used_at} /> : 'Not used yet'}</dd>
          </dl>
          <p class="hint">
            One key per workspace: to change its scopes, revoke it and create a new one. Programs using it stop working within seconds of the revocation.
          </p>
          <button
            type="button"
            class="button button-danger"
            disabled={busy}
            onClick={() => {
              if (window.confirm('Revoke this API key? Programs using it will stop working.')) void act(() => call<ApiKeyPage>('DELETE', '/api-key'));
            }}
          >
            Revoke key
          </button>
        </Card>
      ) : (
        <Card title="Create a key">
          {!data.api_access && <p class="alert alert-info">This workspace's plan (free) has no API access: a key can be created but is refused until the plan is upgraded.</p>}
          <Empty>This workspace has no active API key.</Empty>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void act(() => call<ApiKeyPage>('POST', '/api-key', { scopes: [...chosen] }));
            }}
          >
            <fieldset>
              <legend>Scopes</legend>
              <div class="scope-actions">
                <button type="button" class="button button-small" onClick={() => setChosen(new Set(data.available_scopes))}>
                  Select all
                </button>
                <button type="button" class="button button-small" onClick={() => setChosen(new Set())}>
                  Clear
                </button>
              </div>
              <div class="scopes">
                {data.available_scopes.map((s) => (
                  <label key={s} class="check">
                    <input type="checkbox" name="scopes" value={s} checked={chosen.has(s)} onChange={() => toggle(s)} />
                    {s}
                  </label>
                ))}
              </div>
            </fieldset>
            <button type="submit" class="button button-primary" disabled={busy || chosen.size === 0}>
              Create API key
            </button>
          </form>
        </Card>
      )}
    </>
  );
}
