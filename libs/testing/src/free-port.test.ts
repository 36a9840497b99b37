import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralLow, freePort, portSlice } from './stack.js';

describe('freePort', () => {
  it('gives each test worker its own slice of the ports below the ephemeral range', () => {
    for (const ephemeralLow of [32_768, 49_152, 65_536]) {
      const slices = Array.from({ length: 8 }, (_, i) => portSlice(i + 1, ephemeralLow)).sort((a, b) => a.low - b.low);
      expect(slices[0]!.low).toBe(10_000);
      for (const [i, s] of slices.entries()) {
        expect(s.size).toBeGreaterThan(1_000);
        expect(s.low + s.size).toBeLessThanOrEqual(ephemeralLow);
        if (i > 0) expect(s.low).toBe(slices[i - 1]!.low + slices[i - 1]!.size); // adjacent, never overlapping
      }
      // Worker ids past the slice count wrap around onto a slice, never outside the range.
      expect(portSlice(9, ephemeralLow)).toEqual(portSlice(1, ephemeralLow));
    }
  });

  it('hands out bindable ports of its own slice, never one twice', async () => {
    const { low, size } = portSlice(Number(process.env.VITEST_POOL_ID) || process.pid, ephemeralLow());
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(low);
      expect(port).toBeLessThan(low + size);
      const server = createServer();
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
