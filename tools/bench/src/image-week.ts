/**
 * Quote Week benchmark: a 14-item run (Instagram and Pinterest, one slot a day for a week, built-in path: offline
 * composer and OCR) through the gateway: time from create to completed, and the image-week service's peak memory
 * (VmHWM). Then the same 14 quotes rendered and read back in this process with the service's own renderer and
 * reader (the quote's block only, as the service reads it): per-card render and verify times (p50, p99). Prints
 * figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createWorkspace, freshClientAddress, startStack, type Stack, type TestWorkspace } from '@spa/testing';
import { SharpCardRenderer } from '@spa/image-week/render/card';
import { OcrReader } from '@spa/image-week/verify/ocr';
import { compareReadBack } from '@spa/image-week/verify/compare';
import { percentile } from './stats.js';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);

/** The pid listening on a TCP port (Linux `ss`). */
function pidOfPort(address: string): number | undefined {
  const port = address.split(':').at(-1);
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(out)?.[1];
  return pid ? Number(pid) : undefined;
}

async function peakMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? 0) / 1024;
}

async function connect(stack: Stack, ws: TestWorkspace, platform: string): Promise<number> {
  const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `${platform}-bench`, sandbox: true });
  const { postingSchedule } = await stack.accounts.getPostingSchedule({ workspaceId: ws.workspaceId, socialAccountId });
  await stack.accounts.updatePostingSchedule({
    workspaceId: ws.workspaceId,
    scheduleId: postingSchedule!.id,
    timezone: 'UTC',
    maxPostsPerDay: 1,
    paused: false,
    hasPostingSlots: true,
    postingSlots: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ dayOfWeek: day, timeOfDay: '12:00', enabled: true })),
  });
  return socialAccountId;
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

export async function benchImageWeek(): Promise<void> {
  progress('Quote Week: starting the stack');
  const stack = await startStack();
  try {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    const instagram = await connect(stack, ws, 'instagram');
    const pinterest = await connect(stack, ws, 'pinterest');
    const pid = pidOfPort(stack.imageWeekAddr);
    const call = (path: string, opts: Record<string, unknown> = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
    progress('Quote Week: a 14-item run');
    const started = performance.now();
    const created = await call('/image_week_runs', {
      method: 'POST',
      body: {
        topic: 'focus and deep work',
        platform_config: { instagram: { social_account_id: instagram }, pinterest: { social_account_id: pinterest, board_id: 'bench', link: 'https://example.com' } },
        cutoff_days: 7,
        schedule_mode: 'scheduled',
      },
    });
    if (created.status !== 201) throw new Error(`create failed: ${created.text}`);
    const id = created.json.image_week_run.id as number;
    // When the run was seen planned (items listed) and its first item completed (polled every 200 ms).
    let planned: number | undefined;
    let firstDone: number | undefined;
    const completions: Array<[number, number]> = [];
    let run: { status: string; items: Array<Record<string, unknown>>; [key: string]: unknown };
    for (;;) {
      if (performance.now() - started > 600_000) throw new Error('the run did not finish within 10 minutes');
      const res = await call(`/image_week_runs/${id}`);
      // A loaded machine can make a read miss the gateway's deadline (503): read again; anything else is a failure.
      if (res.status === 503) continue;
      if (res.status !== 200) throw new Error(`reading the run failed: ${res.status} ${res.text}`);
      run = res.json.image_week_run;
      const at = performance.now() - started;
      if (planned === undefined && Number(run.total_items) > 0) planned = at;
      if (firstDone === undefined && Number(run.completed_items) > 0) firstDone = at;
      if (Number(run.completed_items) > (completions.at(-1)?.[0] ?? 0)) completions.push([Number(run.completed_items), at]);
      if (run.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const total = performance.now() - started;
    const peak = pid ? await peakMiB(pid) : NaN;

    progress('Quote Week: per-card render and verify of the same quotes in this process');
    const renderer = new SharpCardRenderer('quote-cards-v1');
    const reader = new OcrReader(1); // one worker: the per-card time of one read, not of the pool
    await reader.warm();
    const renderMs: number[] = [];
    const verifyMs: number[] = [];
    let matched = 0;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the API
    for (const item of run.items as Array<Record<string, any>>) {
      if (!item.quote) continue;
      let t = performance.now();
      const card = await renderer.render({ quote: item.quote, platform: item.platform, attempt: 1, templateOffset: item.position });
      renderMs.push(performance.now() - t);
      t = performance.now();
      const read = await reader.read(card.png, card.textRegion);
      verifyMs.push(performance.now() - t);
      if (compareReadBack(item.quote, read.text).ok) matched++;
    }
    await reader.close();
    const sorted = (a: number[]) => Float64Array.from(a).sort();
    const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)} ${value}`);
    console.log('\nQuote Week (built-in path: offline composer + tesseract.js OCR)');
    line('run', `${run.status}: ${run.completed_items}/${run.total_items} completed, ${run.failed_items} failed, ${run.garble_count} garbled, ${run.images_generated} images`);
    line('time from create to completed', ms(total) + ` (aim < 30000 ms)`);
    line('reported duration_ms', ms(Number(run.duration_ms)));
    line('planned (quotes written) after', planned === undefined ? 'not seen' : ms(planned));
    line('first item completed after', firstDone === undefined ? 'not seen' : ms(firstDone));
    line('items completed by (s)', completions.map(([n, t]) => `${n}@${(t / 1000).toFixed(1)}`).join(' '));
    line('image-week peak memory (VmHWM)', Number.isNaN(peak) ? 'unknown' : `${peak.toFixed(0)} MiB`);
    line('render per card p50 / p99', `${ms(percentile(sorted(renderMs), 0.5))} / ${ms(percentile(sorted(renderMs), 0.99))} (${renderMs.length} cards)`);
    line('verify (OCR) per card p50 / p99', `${ms(percentile(sorted(verifyMs), 0.5))} / ${ms(percentile(sorted(verifyMs), 0.99))} (${matched}/${verifyMs.length} matched)`);
  } finally {
    await stack.stop();
  }
}
