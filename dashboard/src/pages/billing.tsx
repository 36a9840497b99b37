import { call } from '../api';
import { Badge, Card, LoadState, When, useLoad } from '../components/ui';

interface Billing {
  tier: string;
  subscription: { status: string; current_period_end: string | null; cancel_at_period_end: boolean; days_until_renewal: number } | null;
  quota: { daily_limit: number; used_today: number; remaining_today: number; resets_at: string } | null;
  max_schedule_days: number;
  quote_week: {
    month: string;
    runs_used: number;
    runs_per_month: number;
    runs_left: number;
    total_runs: number;
    recent_runs: Array<{ id: number; status: string; topic: string; dry_run: boolean; total_items: number; completed_items: number; failed_items: number; created_at: string }>;
  } | null;
}

export function BillingPage() {
  const page = useLoad(() => call<Billing>('GET', '/billing'));
  const b = page.data;
  const s = b?.subscription;
  const q = b?.quota;
  return (
    <>
      <h1>Billing</h1>
      <LoadState load={page} />
      {!b ? null : (
        <>
          <Card title="Plan">
            <dl class="facts">
              <dt>Plan</dt>
              <dd class="capitalize">{b.tier}</dd>
              <dt>Status</dt>
              <dd>{s ? <Badge tone={s.status === 'active' || s.status === 'trialing' ? 'ok' : 'bad'}>{s.status.replace('_', ' ')}</Badge> : '—'}</dd>
              <dt>{s?.cancel_at_period_end ? 'Ends' : 'Renews'}</dt>
              <dd>
                <When at={s?.current_period_end} /> {s && <span class="muted">({s.days_until_renewal} days)</span>}
              </dd>
              <dt>Scheduling horizon</dt>
              <dd>{b.max_schedule_days} days ahead</dd>
            </dl>
            <p class="hint">Plan changes are made by your operator.</p>
          </Card>
          <Card title="AI generations today">
            {q && (
              <>
                <label for="quota" class="meter-label">
                  {q.used_today} of {q.daily_limit} used · {q.remaining_today} left
                </label>
                <progress id="quota" max={q.daily_limit} value={q.used_today}>
                  {q.used_today} of {q.daily_limit}
                </progress>
                <p class="hint">
                  Resets <When at={q.resets_at} />
                </p>
              </>
            )}
          </Card>
          <Card title="Quote Week">
            {b.quote_week && (
              <>
                <label for="quote-week" class="meter-label">
                  {b.quote_week.runs_used} of {b.quote_week.runs_per_month} runs used in {b.quote_week.month} · {b.quote_week.runs_left} left
                </label>
                <progress id="quote-week" max={Math.max(b.quote_week.runs_per_month, 1)} value={b.quote_week.runs_used}>
                  {b.quote_week.runs_used} of {b.quote_week.runs_per_month}
                </progress>
                <p class="hint">Dry runs are not counted.</p>
                {b.quote_week.recent_runs.length === 0 ? (
                  <p class="muted">No Quote Week runs yet.</p>
                ) : (
                  <ul class="rows" aria-label="Recent Quote Week runs">
                    {b.quote_week.recent_runs.map((r) => (
                      <li key={r.id} class="row">
                        <div>
                          <strong>{r.topic}</strong> <span class="muted">run {r.id}</span>
                          <div class="hint">
                            <When at={r.created_at} /> · {r.completed_items} of {r.total_items} cards{r.failed_items ? ` · ${r.failed_items} failed` : ''}
                          </div>
                        </div>
                        <div class="row-end">
                          {r.dry_run && <Badge tone="neutral">dry run</Badge>}
                          <Badge tone={r.status === 'completed' ? 'ok' : r.status === 'failed' || r.status === 'canceled' ? 'bad' : 'neutral'}>{r.status}</Badge>
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </>
            )}
          </Card>
        </>
      )}
    </>
  );
}
