import { useState } from 'preact/hooks';
import { call } from '../api';
import { SendButton, SendForm } from '../components/send';
import { Card, Empty, LoadState, SecretOnce, When, useLoad } from '../components/ui';

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
  const data = page.data;
  const act = async (run: () => Promise<ApiKeyPage>) => {
    const next = await run();
    page.set(next);
    setSecret(next.secret ?? null);
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
      {secret && <SecretOnce label="Your new API key" secret={secret} note="Copy it now: it is shown once and cannot be shown again. Send it as Authorization: Bearer <key>." />}
      <LoadState load={page} />
      {!data ? null : data.api_key ? (
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
          <p class="hint">One key per workspace: to change its scopes, revoke it and create a new one. Programs using it stop working within seconds of the revocation.</p>
          <SendButton tone="danger" confirm="Revoke this API key? Programs using it will stop working." run={() => act(() => call<ApiKeyPage>('DELETE', '/api-key'))}>
            Revoke key
          </SendButton>
        </Card>
      ) : (
        <Card title="Create a key">
          {!data.api_access && <p class="alert alert-info">This workspace's plan (free) has no API access: a key can be created but is refused until the plan is upgraded.</p>}
          <Empty>This workspace has no active API key.</Empty>
          <SendForm run={() => act(() => call<ApiKeyPage>('POST', '/api-key', { scopes: [...chosen] }))}>
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
            <button type="submit" class="button button-primary" disabled={chosen.size === 0}>
              Create API key
            </button>
          </SendForm>
        </Card>
      )}
    </>
  );
}
