import { isDuplicateKeyError } from '@spa/mongo';
import type { CustomRuleScope } from '@spa/vocabulary';
import type { CustomRule, CustomRulePatch } from '../domain/model.js';
import type { CustomRulesRepository } from '../domain/ports.js';
import { defined } from './defined.js';
import type { AccountsModels, CustomRuleState } from './models.js';
import { RevisionLog } from './revisions.js';

interface CustomRuleDoc {
  _id: number;
  workspace_id: number;
  slot: string;
  created_at: Date;
}

const toCustomRule = (head: CustomRuleDoc, state: CustomRuleState): CustomRule => ({
  id: head._id,
  workspaceId: head.workspace_id,
  title: state.title,
  content: state.content,
  active: state.active,
  scope: state.scope as CustomRuleScope,
  createdAt: head.created_at,
  updatedAt: state.updated_at,
});

/** Custom rules: the head takes one of the workspace's numbered slots (unique), the contents are revisions. */
export class MongoCustomRules implements CustomRulesRepository {
  private readonly states: RevisionLog<CustomRuleState>;

  constructor(private readonly models: AccountsModels) {
    this.states = new RevisionLog(models.CustomRuleRevision, (key) => `Custom rule ${key}`);
  }

  async insert(rule: CustomRule, maxPerWorkspace: number): Promise<boolean> {
    const key = String(rule.id);
    // The contents first: until the rule (with its slot) exists they are invisible, and removed when it cannot.
    await this.states.change(rule.workspaceId, key, () => ({
      title: rule.title,
      content: rule.content,
      active: rule.active,
      scope: rule.scope,
      updated_at: rule.updatedAt,
    }));
    // Every failed attempt means another rule took a slot, so this ends after at most `maxPerWorkspace` retries.
    for (let attempt = 0; attempt <= maxPerWorkspace; attempt++) {
      const taken = new Set((await this.models.CustomRule.find({ workspace_id: rule.workspaceId }, { slot: 1 }).lean<Array<{ slot: string }>>()).map((d) => d.slot));
      const free = Array.from({ length: maxPerWorkspace }, (_, n) => `${rule.workspaceId}:${n}`).filter((s) => !taken.has(s));
      if (!free.length) break;
      // A random free slot: racing creates rarely pick the same one.
      const slot = free[Math.floor(Math.random() * free.length)];
      try {
        await this.models.CustomRule.create({ _id: rule.id, workspace_id: rule.workspaceId, slot, created_at: rule.createdAt });
        return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    await this.states.remove(rule.workspaceId, key);
    return false;
  }

  async list(workspaceId: number, filter: { active?: boolean } = {}): Promise<CustomRule[]> {
    const heads = await this.models.CustomRule.find({ workspace_id: workspaceId }).sort({ _id: 1 }).lean<CustomRuleDoc[]>();
    const states = await this.states.latestOfWorkspace(workspaceId);
    return heads
      .flatMap((head) => {
        const state = states.get(String(head._id));
        return state ? [toCustomRule(head, state)] : [];
      })
      .filter((r) => filter.active === undefined || r.active === filter.active);
  }

  async get(workspaceId: number, id: number): Promise<CustomRule | null> {
    const head = await this.models.CustomRule.findOne({ _id: id, workspace_id: workspaceId }).lean<CustomRuleDoc>();
    const state = head && (await this.states.latest(workspaceId, String(id)));
    return head && state ? toCustomRule(head, state) : null;
  }

  async change(workspaceId: number, id: number, change: (current: CustomRule) => CustomRulePatch, at: Date): Promise<CustomRule | null> {
    const head = await this.models.CustomRule.findOne({ _id: id, workspace_id: workspaceId }).lean<CustomRuleDoc>();
    if (!head) return null;
    const state = await this.states.change(workspaceId, String(id), (current) => (current ? { ...current, ...defined(change(toCustomRule(head, current))), updated_at: at } : null));
    return state ? toCustomRule(head, state) : null;
  }

  async delete(workspaceId: number, id: number): Promise<CustomRule | null> {
    const head = await this.models.CustomRule.findOne({ _id: id, workspace_id: workspaceId }).lean<CustomRuleDoc>();
    if (!head) return null;
    // The tombstone decides: of racing deletes one removes the rule, and a racing change lands before it or
    // finds the rule gone. Then the rule's slot is freed.
    const removed = await this.states.remove(workspaceId, String(id));
    await this.models.CustomRule.deleteOne({ _id: id, workspace_id: workspaceId });
    return removed && toCustomRule(head, removed);
  }
}
