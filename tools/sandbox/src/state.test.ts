import { describe, expect, it } from 'vitest';
import { SandboxState } from './state.js';

describe('sandbox faults', () => {
  it("hit the platform's next creates, as many times as asked", () => {
    const state = new SandboxState();
    state.addFault('twitter', 'server_error', 2);
    expect(state.takeFault('mastodon')).toBeUndefined();
    expect(state.takeFault('twitter', 'metrics')).toBeUndefined();
    expect([state.takeFault('twitter', 'create', 'anyone'), state.takeFault('twitter'), state.takeFault('twitter')]).toEqual(['server_error', 'server_error', undefined]);
  });

  it("with an account, hit only that account's calls and wait for them", () => {
    const state = new SandboxState();
    state.addFault('twitter', 'auth', 1, 'create', 'mine');
    state.addFault('twitter', 'rate_limited', 1, 'metrics', 'mine');
    expect(state.takeFault('twitter', 'create', 'theirs')).toBeUndefined();
    expect(state.takeFault('twitter')).toBeUndefined();
    expect(state.takeFault('twitter', 'create', 'mine')).toBe('auth');
    expect(state.takeFault('twitter', 'create', 'mine')).toBeUndefined();
    expect(state.takeFault('twitter', 'metrics', 'theirs')).toBeUndefined();
    expect(state.takeFault('twitter', 'metrics', 'mine')).toBe('rate_limited');
  });
});
