import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { RequestFailed, type ApiError } from '../api';
import { BASE, isPlainClick, navigate } from '../nav';

/** An error from the server, announced to screen readers, with each bad field listed. */
export function ErrorAlert({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <div class="alert alert-error" role="alert">
      <strong>{error.message}</strong>
      {error.details && error.details.length > 1 && (
        <ul>
          {error.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const asApiError = (err: unknown): ApiError => (err instanceof RequestFailed ? err.error : { status: 0, code: 'ERROR', message: err instanceof Error ? err.message : String(err) });

/** A secret shown once, with a copy button. */
export function SecretOnce({ label, secret, note }: { label: string; secret: string; note: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section class="secret" aria-label={label}>
      <h3>{label}</h3>
      <p class="secret-note">{note}</p>
      <div class="secret-row">
        <code class="secret-value" data-testid="secret">
          {secret}
        </code>
        <button type="button" class="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p class="sr-only" role="status">
        {copied ? 'Copied to the clipboard' : ''}
      </p>
    </section>
  );
}

export function Card({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={`card-${title.replace(/\W+/g, '-')}`}>
      <div class="card-head">
        <h2 id={`card-${title.replace(/\W+/g, '-')}`}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** A date-time in the reader's locale (the ISO value in a tooltip), or a dash. */
export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span aria-label="never">—</span>;
  const d = new Date(at);
  return (
    <time dateTime={at} title={at}>
      {d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}

export function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'bad' | 'neutral'; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  reload: () => Promise<void>;
  set: (d: T) => void;
}

/** Loads once (and again when `reload` is called); `LoadState` shows the loading line, or the error with a retry. */
export function useLoad<T>(load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const reload = async () => {
    setError(null);
    try {
      setData(await load());
    } catch (err) {
      setError(asApiError(err));
    }
  };
  useEffect(() => {
    void reload();
  }, []);
  return { data, error, reload, set: setData };
}

/** "Loading…" until the data comes; a load that failed says why and offers to try again (never an endless "Loading…"). */
export function LoadState({ load }: { load: Pick<Loaded<unknown>, 'data' | 'error' | 'reload'> }) {
  if (load.error)
    return (
      <div class="alert alert-error" role="alert">
        <strong>{load.error.message}</strong>{' '}
        <button type="button" class="button button-small" onClick={() => void load.reload()}>
          Try again
        </button>
      </div>
    );
  if (load.data === null) return <p aria-busy="true">Loading…</p>;
  return null;
}

/** A link to another dashboard page, followed without reloading the app. */
export function Link({ to, children, label }: { to: string; children: ComponentChildren; label?: string }) {
  return (
    <a
      href={BASE + to}
      aria-label={label}
      onClick={(e) => {
        if (!isPlainClick(e)) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
