import { call } from '../api';
import { SendButton } from '../components/send';
import { Card, LoadState, useLoad } from '../components/ui';

interface AuthorizationRequest {
  client: { client_id: string; client_name: string; redirect_host: string };
  scopes: string[];
  resource: string;
  workspace: { id: number; name: string; tier: string };
}

const ACTIONS: Record<string, string> = { read: 'See', write: 'Create, change and delete', generate: 'Generate with AI' };

const IN_WORDS: Record<string, string> = {
  'ai:generate': 'Generate posts with AI',
  'publish:write': 'Publish posts and upload media',
  'image_week:read': 'See Quote Week runs',
  'image_week:write': 'Start and cancel Quote Week runs',
};

/** A scope in words: `posts:write` is "Create, change and delete posts". */
export const scopeInWords = (scope: string): string => {
  const special = IN_WORDS[scope];
  if (special) return special;
  const [resource = scope, action = ''] = scope.split(':');
  return `${ACTIONS[action] ?? action} ${resource.replace(/_/g, ' ')}`.trim();
};

/**
 * The consent page of an AI agent (MCP client) signing in with OAuth: what it is, where it sends the answer,
 * the workspace and the scopes it asks for; Allow sends it a code, Deny sends it a refusal.
 */
export function ConsentPage() {
  const query = location.search.slice(1);
  const request = useLoad(() => call<AuthorizationRequest>('GET', `/oauth/request?${query}`));
  const params = Object.fromEntries(new URLSearchParams(query));
  const answer = async (decision: 'allow' | 'deny') => {
    const { redirect_to } = await call<{ redirect_to: string }>('POST', '/oauth/consent', { request: params, decision });
    location.assign(redirect_to);
  };
  const data = request.data;
  return (
    <main id="main" class="sign-in">
      <div class="card sign-in-card">
        <h1>Authorize an AI agent</h1>
        <LoadState load={request} />
        {data && (
          <Card title={data.client.client_name}>
            <p>
              <strong>{data.client.client_name}</strong> wants to use the API on the workspace <strong>{data.workspace.name}</strong> as you. It will get its answer at{' '}
              <code>{data.client.redirect_host}</code>.
            </p>
            <p>It asks to:</p>
            <ul class="consent-scopes" aria-label="Scopes asked for">
              {data.scopes.map((s) => (
                <li key={s}>
                  {scopeInWords(s)} <code>{s}</code>
                </li>
              ))}
            </ul>
            <p class="hint">You can revoke it at any time on the AI agents page; it then stops working within seconds.</p>
            <div class="actions">
              <SendButton tone="primary" run={() => answer('allow')}>
                Allow
              </SendButton>
              <SendButton run={() => answer('deny')}>Deny</SendButton>
            </div>
          </Card>
        )}
      </div>
    </main>
  );
}
