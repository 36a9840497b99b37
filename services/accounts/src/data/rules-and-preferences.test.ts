import type { Connection } from '@spa/mongo';
import { CUSTOM_RULE_LIMITS } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomRule, deleteCustomRule, getCustomRule, listCustomRules, toggleCustomRule, updateCustomRule } from '../domain/custom-rules.js';
import type { AccountsDeps } from '../domain/ports.js';
import { getPreferences, updatePreferences } from '../domain/preferences.js';
import { createWorkspace } from '../domain/workspaces.js';
import { openAccountsStore } from '../../../../tests/support/accounts-store.js';

let connection: Connection;
let deps: AccountsDeps;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ connection, deps, close } = await openAccountsStore('t_acc_rules'));
});
afterAll(() => close?.());

const rule = (n: number) => ({ title: `Rule ${n}`, content: `Say ${n}` });

describe('custom rules on the real store', () => {
  it(`keeps at most ${CUSTOM_RULE_LIMITS.perWorkspace} rules per workspace even when created concurrently, and a delete frees a place`, async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Rules', tier: 'pro' });
    const { workspaceId: other } = await createWorkspace(deps, { name: 'Other', tier: 'pro' });
    await createCustomRule(deps, other, rule(0));
    const results = await Promise.allSettled(Array.from({ length: CUSTOM_RULE_LIMITS.perWorkspace + 12 }, (_, n) => createCustomRule(deps, workspaceId, rule(n))));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(CUSTOM_RULE_LIMITS.perWorkspace);
    expect(refused.map((r) => (r.reason as { code: string }).code)).toEqual(Array(12).fill('INVALID_PARAMETERS'));
    const stored = await listCustomRules(deps, workspaceId);
    expect(stored).toHaveLength(CUSTOM_RULE_LIMITS.perWorkspace);
    expect(stored.map((r) => r.id)).toEqual([...stored.map((r) => r.id)].sort((a, b) => a - b));
    // The other workspace's rule neither counts nor shows.
    expect(await listCustomRules(deps, other)).toHaveLength(1);

    await deleteCustomRule(deps, workspaceId, stored[7]!.id);
    await expect(createCustomRule(deps, workspaceId, rule(99))).resolves.toMatchObject({ title: 'Rule 99' });
    await expect(createCustomRule(deps, workspaceId, rule(100))).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
  });

  it('applies every racing change: toggles cancel out in pairs, updates of different fields all survive', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Toggle', tier: 'pro' });
    const { id } = await createCustomRule(deps, workspaceId, rule(1));
    await Promise.all([
      ...Array.from({ length: 6 }, () => toggleCustomRule(deps, workspaceId, id)),
      updateCustomRule(deps, workspaceId, id, { title: 'New title' }),
      updateCustomRule(deps, workspaceId, id, { content: 'New content' }),
      updateCustomRule(deps, workspaceId, id, { scope: 'thread' }),
    ]);
    await toggleCustomRule(deps, workspaceId, id);
    expect(await getCustomRule(deps, workspaceId, id)).toMatchObject({ title: 'New title', content: 'New content', scope: 'thread', active: false });
  });

  it('orders a delete with racing changes: one delete wins, each change lands before it (and shows in its answer) or finds the rule gone', async () => {
    for (let round = 0; round < 3; round++) {
      const { workspaceId } = await createWorkspace(deps, { name: `Delete race ${round}`, tier: 'pro' });
      const { id } = await createCustomRule(deps, workspaceId, rule(1));
      const titles = Array.from({ length: 6 }, (_, n) => `Title ${n}`);
      const [deletes, changes] = await Promise.all([
        Promise.allSettled(Array.from({ length: 3 }, () => deleteCustomRule(deps, workspaceId, id))),
        Promise.allSettled(titles.map((title) => updateCustomRule(deps, workspaceId, id, { title }))),
      ]);
      const deleted = deletes.filter((d) => d.status === 'fulfilled').map((d) => d.value);
      expect(deleted).toHaveLength(1);
      expect(deletes.filter((d) => d.status === 'rejected').map((d) => (d.reason as { code: string }).code)).toEqual(['NOT_FOUND', 'NOT_FOUND']);
      for (const c of changes) if (c.status === 'rejected') expect((c.reason as { code: string }).code).toBe('NOT_FOUND');
      // The rule as the delete removed it carries the last change applied before it.
      const applied = changes.flatMap((c) => (c.status === 'fulfilled' ? [c.value.title] : []));
      if (applied.length === 0) expect(deleted[0]!.title).toBe('Rule 1');
      else expect(applied).toContain(deleted[0]!.title);
      // No change wrote after the removal (an orphan state nobody could see).
      expect(await connection.collection('custom_rule_revisions').countDocuments({ workspace_id: workspaceId, state: { $exists: true } })).toBe(0);
      // Gone for good: no read, list or later change brings it back.
      await expect(getCustomRule(deps, workspaceId, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await listCustomRules(deps, workspaceId)).toEqual([]);
      await expect(updateCustomRule(deps, workspaceId, id, { title: 'Late' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});

describe('preferences on the real store', () => {
  it('keeps every field of concurrent merges of different fields, including the first ever write', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Prefs', tier: 'pro' });
    await Promise.all([
      updatePreferences(deps, workspaceId, { tone: 'witty' }),
      updatePreferences(deps, workspaceId, { includeEmoji: true }),
      updatePreferences(deps, workspaceId, { structure: 'list' }),
      updatePreferences(deps, workspaceId, { timezone: 'Europe/Berlin' }),
      updatePreferences(deps, workspaceId, { theme: 'dark' }),
      updatePreferences(deps, workspaceId, { aiModel: 'gpt-4o-mini' }),
      updatePreferences(deps, workspaceId, { usePostMetricsForAi: false }),
      updatePreferences(deps, workspaceId, { customRules: 'No jargon.' }),
      updatePreferences(deps, workspaceId, { emailNotifications: { productTips: false } }),
      updatePreferences(deps, workspaceId, { emailNotifications: { reEngagement: false } }),
    ]);
    const p = await getPreferences(deps, workspaceId);
    expect(p).toMatchObject({
      tone: 'witty',
      includeEmoji: true,
      structure: 'list',
      timezone: 'Europe/Berlin',
      theme: 'dark',
      aiModel: 'gpt-4o-mini',
      usePostMetricsForAi: false,
      customRules: 'No jargon.',
      emailNotifications: { postFailure: true, weeklyBriefing: true, productTips: false, reEngagement: false },
    });
  });
});
