import { afterEach, describe, expect, it } from 'vitest';
import { tempCore } from '../testing';

let t: ReturnType<typeof tempCore> | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

describe('guardrails/limits', () => {
  it("serves the limits the write tool enforces: the PM's constraints.md where it sets them, defaults elsewhere", async () => {
    t = tempCore();
    await t.core.context.memory.ready;
    const fs = t.core.context.memory.fs;
    await fs.writeFile('/portfolio/constraints.md', '# constraints — tighter book\nmax_single_risk: 2.5\nmax_gross: 150\n---\nDesk limits after the drawdown.\n', { actor: 'pm' });
    const r = await t.core.invoke('guardrails/limits', {});
    expect(r.ok && r.value).toEqual({
      limits: { maxSingleRisk: 2.5, maxGross: 150, maxDuration: 5, maxFactorConcentration: 30 },
      fromConstraints: { maxSingleRisk: true, maxGross: true, maxDuration: false, maxFactorConcentration: false },
    });
  });
});
