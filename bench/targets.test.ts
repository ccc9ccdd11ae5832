import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { meets, targets } from './_targets';

describe('benchmark targets', () => {
  it('compares each way round correctly (a wrong operator would report a miss as met)', () => {
    expect(meets(4.9, '<=', 5)).toBe(true);
    expect(meets(5.1, '<=', 5)).toBe(false);
    expect(meets(50, '<', 50)).toBe(false);
    expect(meets(0.95, '>=', 0.95)).toBe(true);
    expect(meets(0, '==', 0)).toBe(true);
    expect(meets(Number.NaN, '>=', 0)).toBe(false);
  });

  it('names only benches that exist', () => {
    const benches = new Set(readdirSync(__dirname).map((f) => f.replace(/\.ts$/, '')));
    const missing = [...new Set(targets.map((t) => t.bench))].filter((b) => !benches.has(b) && b !== 'soak');
    expect(missing).toEqual([]);
  });
});
