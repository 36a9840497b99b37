import { call } from '../api';
import { Badge, Card, ErrorAlert, When, useLoad } from '../components/ui';

interface Billing {
  tier: string;
  subscription: { status: string; current_period_end: string | null; cancel_at_period_end: boolean; days_until_renewal: number } | null;
  quota: { daily_limit: number; used_today: number; remaining_today: number; resets_at: string } | null;
  max_schedule_days: number;
  quote_week: { runs_left: number; runs_per_month: number } | null;
}

export function BillingPage() {
  const page = useLoad(() => call<Billing>('GET', '/billing'));
  const b = page.data;
  const s = b?.subscription;
  const q = b?.quota;
  return (
    <>
      <h1>Billing</h1>
      <ErrorAlert error={page.error} />
      {!b ? (
        <p aria-busy="true">Loading…</p>
      ) : (
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
            {b.quote_week ? (
              <p>
                {b.quote_week.runs_left} of {b.quote_week.runs_per_month} runs left this month
              </p>
            ) : (
              <p class="hint">Quote Week runs are not available on this deployment yet.</p>
            )}
          </Card>
        </>
      )}
    </>
  );
}
