import { useEffect, useState } from 'preact/hooks';
import { RequestFailed, call, setCsrfToken, type SessionInfo } from './api';
import { ErrorAlert, asApiError } from './components/ui';
import { AccountsPage } from './pages/accounts';
import { ApiKeyPage } from './pages/api-key';
import { BillingPage } from './pages/billing';
import { PostsPage } from './pages/posts';
import { SignIn } from './pages/sign-in';
import { SitesPage } from './pages/sites';
import { WebhooksPage } from './pages/webhooks';

const PAGES = [
  { path: 'api-key', title: 'API key', Page: ApiKeyPage },
  { path: 'webhooks', title: 'Webhooks', Page: WebhooksPage },
  { path: 'accounts', title: 'Connected accounts', Page: AccountsPage },
  { path: 'sites', title: 'Sites', Page: SitesPage },
  { path: 'posts', title: 'Posts', Page: PostsPage },
  { path: 'billing', title: 'Billing', Page: BillingPage },
] as const;

const BASE = '/dashboard/';
const currentPath = () => location.pathname.slice(BASE.length).replace(/\/$/, '') || 'api-key';

export function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [path, setPath] = useState(currentPath());
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ReturnType<typeof asApiError> | null>(null);

  const adopt = (s: SessionInfo | null) => {
    setCsrfToken(s?.csrf_token ?? '');
    setSession(s);
  };
  useEffect(() => {
    call<SessionInfo>('GET', '/session').then(adopt, () => adopt(null));
    const onPop = () => setPath(currentPath());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const page = PAGES.find((p) => p.path === path) ?? PAGES[0];
  useEffect(() => {
    document.title = session ? `${page.title} · Dashboard` : 'Sign in · Dashboard';
  }, [page, session]);

  const go = (e: MouseEvent, to: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    history.pushState(null, '', BASE + to);
    setPath(to);
    document.getElementById('main')?.focus();
  };
  const signOut = async (everywhere: boolean) => {
    try {
      await call(everywhere ? 'POST' : 'DELETE', everywhere ? '/session/sign-out-everywhere' : '/session');
      setNotice(everywhere ? 'You are signed out on every device.' : 'You are signed out.');
      adopt(null);
    } catch (err) {
      // A session that already ended is as good as signed out.
      if (err instanceof RequestFailed && err.error.status === 401) adopt(null);
      else setError(asApiError(err));
    }
  };
  const switchWorkspace = async (workspaceId: number) => {
    try {
      adopt(await call<SessionInfo>('PUT', '/session/workspace', { workspace_id: workspaceId }));
    } catch (err) {
      setError(asApiError(err));
    }
  };

  if (session === undefined) return <p class="loading" aria-busy="true">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={(s) => { setNotice(undefined); adopt(s); }} notice={notice} />;
  const workspace = session.workspaces.find((w) => w.id === session.workspace_id);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Social Publishing</span>
        <label class="workspace-switch">
          <span>Workspace</span>
          <select value={session.workspace_id} onChange={(e) => void switchWorkspace(Number(e.currentTarget.value))} aria-label="Workspace">
            {session.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} ({w.tier})
              </option>
            ))}
          </select>
        </label>
        <span class="user" title={session.user.email}>
          {session.user.email}
        </span>
        <div class="signout">
          <button type="button" class="button button-small" onClick={() => void signOut(false)}>
            Sign out
          </button>
          <button type="button" class="button button-small" onClick={() => void signOut(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      <nav class="nav" aria-label="Dashboard">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a href={BASE + p.path} aria-current={p.path === page.path ? 'page' : undefined} onClick={(e) => go(e, p.path)}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} class="main">
        <ErrorAlert error={error} />
        <p class="workspace-line">
          {workspace?.name} · {workspace?.tier} plan
        </p>
        <page.Page key={`${session.workspace_id}-${page.path}`} />
      </main>
    </>
  );
}
