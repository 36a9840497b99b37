import { useEffect, useState } from 'preact/hooks';
import { RequestFailed, call, onOtherTab, onSessionEnded, setCsrfToken, tellOtherTabs, type SessionInfo } from './api';
import { Outcome, SendButton, useSend } from './components/send';
import { asApiError } from './components/ui';
import { BASE, currentPath, isPlainClick, navigate } from './nav';
import { AccountsPage } from './pages/accounts';
import { AgentsPage } from './pages/agents';
import { ApiKeyPage } from './pages/api-key';
import { BillingPage } from './pages/billing';
import { ConsentPage } from './pages/consent';
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
  { path: 'agents', title: 'AI agents', Page: AgentsPage },
] as const;

/** Where an AI agent's OAuth sign-in lands (after the sign-in form when nobody is signed in). */
const CONSENT_PATH = 'oauth/consent';

export function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [bootError, setBootError] = useState<ReturnType<typeof asApiError> | null>(null);
  const [path, setPath] = useState(currentPath());
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const switching = useSend();

  const adopt = (s: SessionInfo | null) => {
    setCsrfToken(s?.csrf_token ?? '');
    setSession(s);
  };
  /** Asks the server who is signed in: a 401 means nobody (the sign-in form); anything else can be retried. */
  const check = () => {
    setBootError(null);
    call<SessionInfo>('GET', '/session').then(adopt, (err: unknown) => {
      if (err instanceof RequestFailed && err.error.status === 401) adopt(null);
      else setBootError(asApiError(err));
    });
  };
  useEffect(() => {
    check();
    const onPop = () => setPath(currentPath());
    addEventListener('popstate', onPop);
    // The session ended (signed out in another tab, expired): the sign-in form, then back to this page.
    const offEnded = onSessionEnded(() => {
      setNotice('Your session has ended: sign in again to continue where you were.');
      adopt(null);
    });
    const offTabs = onOtherTab((event) => {
      if (event === 'signed-out') {
        setNotice('You signed out in another tab.');
        adopt(null);
      } else check();
    });
    return () => {
      removeEventListener('popstate', onPop);
      offEnded();
      offTabs();
    };
  }, []);
  const page = PAGES.find((p) => p.path === path.split('#')[0]) ?? PAGES[0];
  useEffect(() => {
    document.title = session ? `${page.title} · Dashboard` : 'Sign in · Dashboard';
  }, [page, session]);

  const go = (e: MouseEvent, to: string) => {
    if (!isPlainClick(e)) return;
    e.preventDefault();
    navigate(to);
    document.getElementById('main')?.focus();
  };
  const signOut = async (everywhere: boolean) => {
    try {
      await call(everywhere ? 'POST' : 'DELETE', everywhere ? '/session/sign-out-everywhere' : '/session');
    } catch (err) {
      // A session that already ended is as good as signed out.
      if (!(err instanceof RequestFailed && err.error.status === 401)) throw err;
    }
    tellOtherTabs('signed-out');
    setNotice(everywhere ? 'You are signed out on every device.' : 'You are signed out.');
    adopt(null);
  };
  const switchWorkspace = async (workspaceId: number) => {
    adopt(await call<SessionInfo>('PUT', '/session/workspace', { workspace_id: workspaceId }));
  };

  if (session === undefined)
    return bootError ? (
      <main id="main" class="sign-in">
        <div class="alert alert-error" role="alert">
          <strong>{bootError.message}</strong>{' '}
          <button type="button" class="button button-small" onClick={check}>
            Try again
          </button>
        </div>
      </main>
    ) : (
      <p class="loading" aria-busy="true">
        Loading…
      </p>
    );
  if (session === null)
    return (
      <SignIn
        onSignedIn={(s) => {
          setNotice(undefined);
          tellOtherTabs('signed-in');
          adopt(s);
        }}
        notice={notice}
      />
    );
  if (path === CONSENT_PATH) return <ConsentPage />;
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
          <select value={session.workspace_id} disabled={switching.pending} onChange={(e) => void switching.send(() => switchWorkspace(Number(e.currentTarget.value)))} aria-label="Workspace">
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
          <SendButton run={() => signOut(false)}>Sign out</SendButton>
          <SendButton run={() => signOut(true)}>Sign out everywhere</SendButton>
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
        <Outcome error={switching.error} done="" />
        <p class="workspace-line">
          {workspace?.name} · {workspace?.tier} plan
        </p>
        <page.Page key={`${session.workspace_id}-${page.path}`} />
      </main>
    </>
  );
}
