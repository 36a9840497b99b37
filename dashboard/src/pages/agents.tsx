import { call } from '../api';
import { SendButton } from '../components/send';
import { Card, Empty, LoadState, When, useLoad } from '../components/ui';

interface Grants {
  grants: Array<{ id: number; client_id: string; client_name: string; redirect_host: string; scopes: string[]; created_at: string; last_used_at: string | null }>;
}

/** AI agents (MCP clients) a member authorized with OAuth on this workspace, each revocable. */
export function AgentsPage() {
  const page = useLoad(() => call<Grants>('GET', '/mcp-clients'));
  const data = page.data;
  return (
    <>
      <h1>AI agents</h1>
      <p class="hint">
        Agents connect to the MCP server at <code>{location.origin}/mcp</code>, with the API key or by signing in here. Those signed in are listed below.
      </p>
      <LoadState load={page} />
      {data &&
        (data.grants.length === 0 ? (
          <Empty>No agent is authorized on this workspace.</Empty>
        ) : (
          data.grants.map((g) => (
            <Card key={g.id} title={g.client_name}>
              <dl class="facts">
                <dt>Client</dt>
                <dd>
                  <code>{g.client_id}</code> (answers at <code>{g.redirect_host}</code>)
                </dd>
                <dt>Scopes</dt>
                <dd>
                  <ul class="chips" aria-label="Scopes">
                    {g.scopes.map((s) => (
                      <li key={s}>{s}</li>
                    ))}
                  </ul>
                </dd>
                <dt>Authorized</dt>
                <dd>
                  <When at={g.created_at} />
                </dd>
                <dt>Last used</dt>
                <dd>{g.last_used_at ? <When at={g.last_used_at} /> : 'Not used yet'}</dd>
              </dl>
              <SendButton tone="danger" confirm={`Revoke ${g.client_name}? It stops working within seconds.`} run={async () => page.set(await call<Grants>('DELETE', `/mcp-clients/${g.id}`))}>
                Revoke
              </SendButton>
            </Card>
          ))
        ))}
    </>
  );
}
