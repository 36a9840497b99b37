import { useState } from 'preact/hooks';
import { call } from '../api';
import { SendButton, SendForm } from '../components/send';
import { Badge, Card, Empty, LoadState, SecretOnce, When, useLoad } from '../components/ui';

interface Webhook {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  previous_secret_expires_at: string | null;
}
interface Delivery {
  id: string;
  webhook_id: number;
  event: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** The terminal post events: what a webhook receives when it chooses none. */
const EVENTS = ['post.published', 'post.failed', 'post.partial_failure'];
/** The kinds a webhook can choose, as the server lists them. */
interface Kinds {
  default: string[];
  lifecycle: string[];
}
/** The lifecycle kinds by what they are about. */
const GROUPS: Array<[string, string]> = [
  ['post.', 'Posts'],
  ['account.', 'Accounts'],
  ['image_week_run.', 'Quote Week'],
  ['site_push.', 'Site Push'],
];

/** Checkboxes of every kind: the terminal events, then the lifecycle kinds by group (none chosen: the terminal events). */
function KindChooser({ kinds, chosen, onChange, idPrefix }: { kinds: Kinds; chosen: Set<string>; onChange: (next: Set<string>) => void; idPrefix: string }) {
  const box = (ev: string) => (
    <label key={ev} class="check">
      <input
        type="checkbox"
        id={`${idPrefix}-${ev}`}
        checked={chosen.has(ev)}
        onChange={() => {
          const next = new Set(chosen);
          if (next.has(ev)) next.delete(ev);
          else next.add(ev);
          onChange(next);
        }}
      />
      {ev}
    </label>
  );
  return (
    <fieldset>
      <legend>Events (none chosen: {kinds.default.join(', ')})</legend>
      <div class="kind-group">
        <span class="hint">A post reached its end</span>
        {kinds.default.map(box)}
      </div>
      {GROUPS.map(([prefix, title]) => {
        const group = kinds.lifecycle.filter((k) => k.startsWith(prefix));
        return group.length ? (
          <div key={prefix} class="kind-group">
            <span class="hint">{title}</span>
            {group.map(box)}
          </div>
        ) : null;
      })}
    </fieldset>
  );
}

/** The webhook's kinds, changed in place. */
function KindEditor({ webhook, kinds, onSaved }: { webhook: Webhook; kinds: Kinds; onSaved: () => Promise<void> }) {
  const [chosen, setChosen] = useState<Set<string>>(new Set(webhook.events));
  const save = async () => {
    await call('POST', `/webhooks/${webhook.id}/events`, { events: [...chosen] });
    await onSaved();
    return chosen.size ? `Saved: it receives ${[...chosen].join(', ')}` : `Saved: it receives ${kinds.default.join(', ')}`;
  };
  return (
    <SendForm run={save} class="stack">
      <KindChooser kinds={kinds} chosen={chosen} onChange={setChosen} idPrefix={`webhook-${webhook.id}`} />
      <button type="submit" class="button button-small">
        Save events
      </button>
    </SendForm>
  );
}
const STATUS_TONE: Record<string, 'ok' | 'warn' | 'bad' | 'neutral'> = { succeeded: 'ok', scheduled: 'warn', failed: 'bad', canceled: 'neutral' };

function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const [status, setStatus] = useState('');
  const [event, setEvent] = useState('');
  const query = () => {
    const q = new URLSearchParams();
    if (status) q.set('status', status);
    if (event) q.set('event', event);
    return q.size ? `?${q}` : '';
  };
  const log = useLoad(() => call<{ deliveries: Delivery[]; events: string[]; statuses: string[] }>('GET', `/webhooks/${webhook.id}/deliveries${query()}`));
  const redeliver = async (d: Delivery) => {
    await call('POST', `/deliveries/${d.id}/redeliver`);
    await log.reload();
    return `${d.event} queued again: it is sent within seconds`;
  };
  return (
    <div class="log">
      <h3>Delivery log</h3>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          void log.reload();
        }}
      >
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">Any</option>
            {['scheduled', 'succeeded', 'failed', 'canceled'].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Event
          <select value={event} onChange={(e) => setEvent(e.currentTarget.value)}>
            <option value="">Any</option>
            {[...new Set([...webhook.events, ...EVENTS, 'webhook.test', ...(log.data?.events ?? [])])].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <button type="submit" class="button button-small">
          Filter
        </button>
        <button type="button" class="button button-small" onClick={() => void log.reload()}>
          Refresh
        </button>
      </form>
      <LoadState load={log} />
      {!log.data ? null : log.data.deliveries.length === 0 ? (
        <Empty>No deliveries{status || event ? ' match these filters' : ' yet'}.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Deliveries of {webhook.url}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.data.deliveries.map((d) => (
                <tr key={d.id} data-delivery={d.id}>
                  <td data-label="Event">{d.event}</td>
                  <td data-label="Status">
                    <Badge tone={STATUS_TONE[d.status] ?? 'neutral'}>{d.status}</Badge>
                  </td>
                  <td data-label="Attempts">{d.attempts}</td>
                  <td data-label="Last error" class={d.last_error ? 'error-text' : undefined}>
                    {d.last_error ?? '—'}
                  </td>
                  <td data-label="Next attempt">
                    <When at={d.next_attempt_at} />
                  </td>
                  <td data-label="Created">
                    <When at={d.created_at} />
                  </td>
                  <td>
                    <SendButton run={() => redeliver(d)} label={`Redeliver ${d.event} delivery ${d.id}`}>
                      Redeliver
                    </SendButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function WebhookCard({ webhook, kinds, onChanged }: { webhook: Webhook; kinds: Kinds; onChanged: () => Promise<void> }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [showLog, setShowLog] = useState(false);
  const [editing, setEditing] = useState(false);
  const [logKey, setLogKey] = useState(0);
  const run = async (action: string, done: string, then?: (r: { secret?: string }) => void) => {
    const r = await call<{ secret?: string }>('POST', `/webhooks/${webhook.id}/${action}`);
    then?.(r);
    await onChanged();
    setLogKey((k) => k + 1);
    return done;
  };
  return (
    <li class="card webhook">
      <div class="card-head">
        <h2 class="url">{webhook.url}</h2>
        <Badge tone={webhook.enabled ? 'ok' : 'bad'}>{webhook.enabled ? 'enabled' : 'disabled'}</Badge>
      </div>
      <p class="hint">
        Events: {webhook.events.length ? webhook.events.join(', ') : kinds.default.join(', ')} · created <When at={webhook.created_at} />
        {webhook.disabled_reason && <> · disabled: {webhook.disabled_reason}</>}
        {webhook.previous_secret_expires_at && (
          <>
            {' '}
            · previous secret valid until <When at={webhook.previous_secret_expires_at} />
          </>
        )}
      </p>
      {secret && <SecretOnce label="New signing secret" secret={secret} note="Shown once. The previous secret keeps signing for 24 hours, so you can switch over." />}
      <div class="actions">
        <SendButton run={() => (webhook.enabled ? run('disable', 'Disabled: no events are sent to it until you enable it') : run('enable', 'Enabled: events are sent to it again'))}>
          {webhook.enabled ? 'Disable' : 'Enable'}
        </SendButton>
        <SendButton run={() => run('rotate-secret', 'Secret rotated', (r) => setSecret(r.secret ?? null))}>Rotate secret</SendButton>
        <SendButton run={() => run('test', 'Test event sent: its delivery shows in the delivery log')}>Send test event</SendButton>
        <button type="button" class="button button-small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          {editing ? 'Close events' : 'Choose events'}
        </button>
        <button type="button" class="button button-small" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide delivery log' : 'Show delivery log'}
        </button>
        <SendButton
          tone="danger"
          label={`Delete webhook ${webhook.url}`}
          confirm={`Delete the webhook ${webhook.url}? No more events are sent to it, and its delivery log is deleted with it.`}
          run={async () => {
            await call('DELETE', `/webhooks/${webhook.id}`);
            await onChanged();
          }}
        >
          Delete
        </SendButton>
      </div>
      {editing && <KindEditor webhook={webhook} kinds={kinds} onSaved={onChanged} />}
      {showLog && <DeliveryLog key={logKey} webhook={webhook} />}
    </li>
  );
}

export function WebhooksPage() {
  const list = useLoad(() => call<{ webhooks: Webhook[]; kinds?: Kinds }>('GET', '/webhooks'));
  const kinds: Kinds = list.data?.kinds ?? { default: EVENTS, lifecycle: [] };
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<string | null>(null);
  const create = async () => {
    const r = await call<{ secret: string }>('POST', '/webhooks', { url, events: [...events] });
    setCreated(r.secret);
    setUrl('');
    await list.reload();
    return `Added ${url}: copy its signing secret below.`;
  };
  return (
    <>
      <h1>Webhooks</h1>
      <Card title="Add a webhook">
        <p class="hint">Up to 5 webhooks; a disabled one still counts (it keeps its secret and log): delete one to make room.</p>
        <SendForm run={create} class="stack">
          <label for="webhook-url">Endpoint URL (https)</label>
          <input id="webhook-url" type="url" required placeholder="https://example.com/hooks/social" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
          <KindChooser kinds={kinds} chosen={events} onChange={setEvents} idPrefix="new-webhook" />
          <button type="submit" class="button button-primary">
            Add webhook
          </button>
        </SendForm>
        {created && <SecretOnce label="Signing secret" secret={created} note="Shown once: verify the X-Service-Signature header of each delivery with it." />}
      </Card>
      <LoadState load={list} />
      {!list.data ? null : list.data.webhooks.length === 0 ? (
        <Empty>No webhooks yet.</Empty>
      ) : (
        <ul class="list" aria-label="Webhooks">
          {list.data.webhooks.map((w) => (
            <WebhookCard key={w.id} webhook={w} kinds={kinds} onChanged={list.reload} />
          ))}
        </ul>
      )}
    </>
  );
}
