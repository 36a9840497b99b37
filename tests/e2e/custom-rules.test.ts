import { CUSTOM_RULE_LIMITS } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack, { tier: 'starter' });
});
afterAll(async () => {
  await stack?.stop();
});

const as =
  (token: string) =>
  (path: string, opts: HttpOptions = {}) =>
    stack.api(path, { token, localAddress: freshClientAddress(), ...opts });
const call = (path: string, opts: HttpOptions = {}) => as(ws.apiKey)(path, opts);
const create = (body: Record<string, unknown>, token = ws.apiKey) => as(token)('/custom_rules', { method: 'POST', body: { custom_rule: body } });
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('custom rules', () => {
  it('creates a rule (201, trimmed, active and scope all by default) and reads it back alone and in the list', async () => {
    const res = await create({ title: '  No hashtags ', content: 'Never use hashtags.\n' });
    expect(res.status, res.text).toBe(201);
    const rule = res.json.custom_rule;
    expect(rule).toMatchObject({ title: 'No hashtags', content: 'Never use hashtags.', active: true, scope: 'all' });
    expect(Number.isInteger(rule.id)).toBe(true);
    expect(rule.created_at).toMatch(ISO_Z);
    expect(rule.updated_at).toBe(rule.created_at);

    const one = await call(`/custom_rules/${rule.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual({ custom_rule: rule });

    const second = (await create({ title: 'Replies short', content: 'Keep replies under 200 characters.', scope: 'reply', active: false })).json.custom_rule;
    expect(second).toMatchObject({ scope: 'reply', active: false });
    const list = await call('/custom_rules');
    expect(list.status, list.text).toBe(200);
    const ids = list.json.custom_rules.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(list.json.custom_rules).toEqual(expect.arrayContaining([rule, second]));
    expect(list.json.meta).toEqual({ total_count: list.json.custom_rules.length });
  });

  it('updates only the fields given, and toggles active back and forth', async () => {
    const rule = (await create({ title: 'Tone', content: 'Be warm.', scope: 'post' })).json.custom_rule;
    await new Promise((r) => setTimeout(r, 5));
    const patched = await call(`/custom_rules/${rule.id}`, { method: 'PATCH', body: { custom_rule: { content: 'Be warm and brief.' } } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.custom_rule).toMatchObject({ id: rule.id, title: 'Tone', content: 'Be warm and brief.', scope: 'post', active: true, created_at: rule.created_at });
    expect(Date.parse(patched.json.custom_rule.updated_at)).toBeGreaterThan(Date.parse(rule.updated_at));

    const off = await call(`/custom_rules/${rule.id}/toggle`, { method: 'POST' });
    expect(off.status, off.text).toBe(200);
    expect(off.json.custom_rule).toMatchObject({ active: false, content: 'Be warm and brief.' });
    const on = await call(`/custom_rules/${rule.id}/toggle`, { method: 'POST' });
    expect(on.json.custom_rule.active).toBe(true);
    expect((await call(`/custom_rules/${rule.id}`)).json.custom_rule.active).toBe(true);
  });

  it('deletes a rule (answering it as it was); afterwards it is 404 everywhere', async () => {
    const rule = (await create({ title: 'Temp', content: 'Temporary.' })).json.custom_rule;
    const del = await call(`/custom_rules/${rule.id}`, { method: 'DELETE' });
    expect(del.status, del.text).toBe(200);
    expect(del.json).toEqual({ custom_rule: rule });
    expectError(await call(`/custom_rules/${rule.id}`), 404, 'NOT_FOUND');
    expectError(await call(`/custom_rules/${rule.id}`, { method: 'DELETE' }), 404, 'NOT_FOUND');
    expectError(await call(`/custom_rules/${rule.id}/toggle`, { method: 'POST' }), 404, 'NOT_FOUND');
    expect((await call('/custom_rules')).json.custom_rules.map((r: { id: number }) => r.id)).not.toContain(rule.id);
  });

  it('names every bad field at once (422) and changes nothing', async () => {
    const before = (await call('/custom_rules')).json.meta.total_count;
    const res = await create({ title: ' ', content: 'x'.repeat(CUSTOM_RULE_LIMITS.maxContent + 1), scope: 'everywhere', active: 'yes' });
    expectError(res, 422, 'INVALID_PARAMETERS');
    const details: string[] = res.json.error.details;
    for (const field of ['title', 'content', 'scope', 'active'])
      expect(
        details.some((d) => d.startsWith(`custom_rule.${field}:`)),
        field,
      ).toBe(true);
    expectError(await create({ title: 'Only a title' }), 422, 'INVALID_PARAMETERS');
    expectError(await create({ title: 'T', content: 'C', workspace_id: 1 }), 422, 'INVALID_PARAMETERS');
    expect((await call('/custom_rules')).json.meta.total_count).toBe(before);

    const rule = (await create({ title: 'Keep', content: 'Keep me.' })).json.custom_rule;
    const empty = await call(`/custom_rules/${rule.id}`, { method: 'PATCH', body: { custom_rule: {} } });
    expectError(empty, 422, 'INVALID_PARAMETERS');
    const bad = await call(`/custom_rules/${rule.id}`, { method: 'PATCH', body: { custom_rule: { title: 'x'.repeat(CUSTOM_RULE_LIMITS.maxTitle + 1), scope: 'nope' } } });
    expectError(bad, 422, 'INVALID_PARAMETERS');
    expect(bad.json.error.details).toHaveLength(2);
    expect((await call(`/custom_rules/${rule.id}`)).json.custom_rule).toEqual(rule);
    expectError(await call('/custom_rules/abc'), 422, 'INVALID_PARAMETERS');
  });

  it("answers another workspace's rule 404 and never lists it", async () => {
    const other = await createWorkspace(stack, { tier: 'pro' });
    const theirs = (await create({ title: 'Theirs', content: 'Private.' }, other.apiKey)).json.custom_rule;
    expectError(await call(`/custom_rules/${theirs.id}`), 404, 'NOT_FOUND');
    expectError(await call(`/custom_rules/${theirs.id}`, { method: 'PATCH', body: { custom_rule: { title: 'Mine now' } } }), 404, 'NOT_FOUND');
    expectError(await call(`/custom_rules/${theirs.id}/toggle`, { method: 'POST' }), 404, 'NOT_FOUND');
    expectError(await call(`/custom_rules/${theirs.id}`, { method: 'DELETE' }), 404, 'NOT_FOUND');
    expect((await call('/custom_rules')).json.custom_rules.map((r: { id: number }) => r.id)).not.toContain(theirs.id);
    expect((await as(other.apiKey)(`/custom_rules/${theirs.id}`)).json.custom_rule).toEqual(theirs);
  });

  it('lets every plan read but only a live paid plan write, and checks the rules scopes', async () => {
    const lapsed = await createWorkspace(stack, { tier: 'starter', status: 'past_due' });
    const rule = (await stack.accounts.createCustomRule({ workspaceId: lapsed.workspaceId, title: 'Old', content: 'Kept.' })).customRule!;
    const read = await as(lapsed.apiKey)(`/custom_rules/${rule.id}`);
    expect(read.status, read.text).toBe(200);
    expect((await as(lapsed.apiKey)('/custom_rules')).json.meta.total_count).toBe(1);
    expectError(await create({ title: 'New', content: 'Refused.' }, lapsed.apiKey), 403, 'NO_ACTIVE_SUBSCRIPTION');
    expectError(await as(lapsed.apiKey)(`/custom_rules/${rule.id}/toggle`, { method: 'POST' }), 403, 'NO_ACTIVE_SUBSCRIPTION');

    const reader = await createWorkspace(stack, { scopes: ['rules:read'] });
    expect((await as(reader.apiKey)('/custom_rules')).status).toBe(200);
    const refused = await create({ title: 'T', content: 'C' }, reader.apiKey);
    expectError(refused, 403, 'INSUFFICIENT_SCOPE');
    expect(refused.json.error.message).toContain('rules:write');
    const none = await createWorkspace(stack, { scopes: ['posts:read'] });
    expectError(await as(none.apiKey)('/custom_rules'), 403, 'INSUFFICIENT_SCOPE');
  });

  it(`holds at most ${CUSTOM_RULE_LIMITS.perWorkspace} rules even when created concurrently, then refuses with a clear 422`, async () => {
    const full = await createWorkspace(stack, { tier: 'team' });
    const results = await Promise.allSettled(
      Array.from({ length: CUSTOM_RULE_LIMITS.perWorkspace + 5 }, (_, i) => stack.accounts.createCustomRule({ workspaceId: full.workspaceId, title: `Rule ${i}`, content: `Content ${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(CUSTOM_RULE_LIMITS.perWorkspace);
    const more = await create({ title: 'One more', content: 'Too many.' }, full.apiKey);
    expectError(more, 422, 'INVALID_PARAMETERS');
    expect(more.json.error.message).toContain(String(CUSTOM_RULE_LIMITS.perWorkspace));
    expect((await as(full.apiKey)('/custom_rules')).json.meta.total_count).toBe(CUSTOM_RULE_LIMITS.perWorkspace);
  });

  it('gives generation only the active rules (ListCustomRules active_only)', async () => {
    const gen = await createWorkspace(stack);
    const a = (await create({ title: 'A', content: 'Active.' }, gen.apiKey)).json.custom_rule;
    await create({ title: 'B', content: 'Inactive.', active: false }, gen.apiKey);
    const { customRules } = await stack.accounts.listCustomRules({ workspaceId: gen.workspaceId, activeOnly: true });
    expect(customRules.map((r) => r.id)).toEqual([a.id]);
  });

  it('documents the six routes in OpenAPI with the CustomRule schema and their statuses', async () => {
    const doc = (await call('/openapi.json')).json;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/custom_rules', '/custom_rules/{id}', '/custom_rules/{id}/toggle']));
    const one = doc.paths['/custom_rules/{id}'].get.responses['200'].content['application/json'].schema;
    // Named schemas live in components/schemas and resolve from the document's root.
    expect(one.properties.custom_rule.$ref).toBe('#/components/schemas/CustomRule');
    expect(doc.components.schemas.CustomRule.properties.scope.enum).toContain('reply');
    expect(doc.paths['/custom_rules'].post.responses['201']).toBeDefined();
    expect(doc.paths['/custom_rules/{id}'].patch.responses['200']).toBeDefined();
    expect(doc.paths['/custom_rules/{id}'].delete.responses['200']).toBeDefined();
    expect(doc.paths['/custom_rules/{id}/toggle'].post.description).toContain('rules:write');
    expect(doc.paths['/custom_rules'].get.description).toContain('Not paged');
  });
});
