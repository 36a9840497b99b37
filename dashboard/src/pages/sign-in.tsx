import { useState } from 'preact/hooks';
import { call, type SessionInfo } from '../api';
import { useSend } from '../components/send';
import { ErrorAlert } from '../components/ui';

export function SignIn({ onSignedIn, notice }: { onSignedIn: (s: SessionInfo) => void; notice?: string | undefined }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signing = useSend();
  const busy = signing.pending;
  const submit = (e: Event) => {
    e.preventDefault();
    void signing.send(async () => onSignedIn(await call<SessionInfo>('POST', '/session', { email, password })));
  };
  return (
    <main id="main" class="sign-in">
      <form class="card sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to the dashboard</h1>
        {notice && (
          <p class="alert alert-info" role="status">
            {notice}
          </p>
        )}
        <ErrorAlert error={signing.error} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" class="button button-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">Accounts are created by your workspace's operator (spa-admin user invite).</p>
      </form>
    </main>
  );
}
