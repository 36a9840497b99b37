import { describe, expect, it } from 'vitest';
import { limiter } from './limiter.js';

describe('limiter', () => {
  it('never runs more than its maximum at once, and runs every task', async () => {
    const inTurn = limiter(2);
    let running = 0;
    let most = 0;
    const task = async (i: number) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5 + (i % 3)));
      running -= 1;
      return i;
    };
    const started = Array.from({ length: 12 }, (_, i) => inTurn(() => task(i)));
    // A task arriving while slots are being handed over still waits its turn.
    await new Promise((resolve) => setTimeout(resolve, 6));
    const late = Array.from({ length: 4 }, (_, i) => inTurn(() => task(12 + i)));
    expect(await Promise.all([...started, ...late])).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(most).toBe(2);
  });

  it('frees the slot of a task that fails', async () => {
    const inTurn = limiter(1);
    await expect(inTurn(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await inTurn(async () => 'next')).toBe('next');
  });
});
