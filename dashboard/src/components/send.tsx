import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api';
import { ErrorAlert, asApiError } from './ui';

/**
 * Every control that sends something to the server goes through here: it sends once (a second click while
 * the first request runs does nothing), stays disabled while sending, and shows its own outcome beside it,
 * an error or a confirmation, scrolled into view if needed (never somewhere else on the page).
 * `run` answers the confirmation to show (or nothing).
 */
export type Run = () => Promise<string | void>;

export function useSend() {
  const sending = useRef(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState('');
  const send = async (run: Run): Promise<boolean> => {
    if (sending.current) return false;
    sending.current = true;
    setPending(true);
    setError(null);
    setDone('');
    try {
      setDone((await run()) ?? '');
      return true;
    } catch (err) {
      setError(asApiError(err));
      return false;
    } finally {
      sending.current = false;
      setPending(false);
    }
  };
  return { pending, error, done, send };
}

/** The outcome of a send, where the user acted: its error, or its confirmation. */
export function Outcome({ error, done }: { error: ApiError | null; done: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error || done) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error, done]);
  return (
    <div class="outcome" ref={ref}>
      <ErrorAlert error={error} />
      <p class="done" role="status">
        {error ? '' : done}
      </p>
    </div>
  );
}

/** A button that sends (after `confirm`, when given, is accepted). */
export function SendButton({
  run,
  confirm,
  children,
  label,
  tone,
  id,
}: {
  run: Run;
  confirm?: string;
  children: ComponentChildren;
  label?: string;
  tone?: 'primary' | 'danger' | 'small';
  id?: string;
}) {
  const s = useSend();
  return (
    <span class="send">
      <button
        id={id}
        type="button"
        class={`button ${tone === 'primary' ? 'button-primary' : tone === 'danger' ? 'button-danger' : 'button-small'}`}
        aria-label={label}
        disabled={s.pending}
        aria-busy={s.pending || undefined}
        onClick={() => {
          if (confirm && !window.confirm(confirm)) return;
          void s.send(run);
        }}
      >
        {children}
      </button>
      <Outcome error={s.error} done={s.done} />
    </span>
  );
}

/** A form that sends on submit: its fields and buttons are disabled while it sends. */
export function SendForm({ run, children, class: cls, label }: { run: Run; children: ComponentChildren; class?: string; label?: string }) {
  const s = useSend();
  return (
    <form
      class={cls}
      aria-label={label}
      aria-busy={s.pending || undefined}
      onSubmit={(e) => {
        e.preventDefault();
        void s.send(run);
      }}
    >
      <fieldset class="sending" disabled={s.pending}>
        {children}
      </fieldset>
      <Outcome error={s.error} done={s.done} />
    </form>
  );
}
