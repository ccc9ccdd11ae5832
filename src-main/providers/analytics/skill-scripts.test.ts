import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRng } from './numeric/random';
import { adfTest } from './relative-value/adf';
import { kelly } from './sizing/kelly';

/**
 * The analyst's skill scripts run sandboxed and cannot import this library, so they carry their own
 * copy of the rules. These tests hold the copies to the library: if either drifts, the analyst
 * would be told one thing by `fetch analytics` and another by `run_script`.
 */
const SKILLS = join(__dirname, '..', '..', '..', 'skills');
type Fn = (input: unknown) => Record<string, unknown>;
const load = async (rel: string) => (await import(pathToFileURL(join(SKILLS, rel)).href)) as Record<string, Fn>;

describe('skill scripts follow the library', () => {
  it('zscore.mjs computes the same ADF statistic, lag order and decision as adfTest', async () => {
    const { zscore } = await load('rv-analysis/scripts/zscore.mjs');
    const rng = seededRng(99);
    for (let i = 0; i < 40; i++) {
      // Alternate random walks and AR(1) spreads of varying length.
      const n = 30 + 11 * i;
      const y: number[] = [10];
      for (let t = 1; t < n; t++) y.push((i % 2 ? 0.85 : 1) * y[t - 1]! + rng.normal());
      const lib = adfTest(y);
      const script = zscore!({ series: y }).adf as {
        statistic: number;
        lags: number;
        nobs: number;
        rejects_unit_root: Record<string, boolean>;
        p_value: number;
      };
      expect(script.lags).toBe(lib.lags);
      expect(script.nobs).toBe(lib.nobs);
      expect(script.statistic).toBeCloseTo(lib.statistic, 9);
      expect(script.p_value).toBeCloseTo(lib.pValue, 12);
      expect(script.rejects_unit_root).toEqual(lib.rejects);
    }
  });

  it('kelly.mjs sizes and refuses the same inputs as kelly()', async () => {
    const script = (await load('expression-design/scripts/kelly.mjs')).kelly!;
    const cases: { binary?: [number, number, number]; outcomes?: { probability: number; return: number }[] }[] = [
      { binary: [0.6, 1, 1] },
      { binary: [0.55, 2, 1] },
      { binary: [0.3, 0.5, 0.2] },
      { outcomes: [0.2, 0.5, 0.3].map((p, i) => ({ probability: p, return: [0.4, 0.05, -0.3][i]! })) },
      { binary: [1, 1, 1] }, // refused: no losing outcome
      { binary: [0.6, 1, 3] }, // refused: loses more than deployed
      {
        outcomes: [
          { probability: 0.5, return: 0.1 },
          { probability: 0.4, return: -0.1 },
        ],
      }, // refused: sums to 0.9
    ];
    for (const c of cases) {
      const libInput = c.binary ? { probability: c.binary[0], odds: c.binary[1], loss: c.binary[2] } : { outcomes: c.outcomes! };
      const scriptInput = c.binary
        ? { probability: c.binary[0], win: c.binary[1], loss: c.binary[2], max_risk_pct: 100 }
        : { outcomes: c.outcomes, max_risk_pct: 100 };
      let libOut: ReturnType<typeof kelly> | Error;
      let scriptOut: Record<string, unknown> | Error;
      try {
        libOut = kelly(libInput);
      } catch (e) {
        libOut = e as Error;
      }
      try {
        scriptOut = script(scriptInput);
      } catch (e) {
        scriptOut = e as Error;
      }
      expect(libOut instanceof Error, JSON.stringify(c)).toBe(scriptOut instanceof Error);
      if (!(libOut instanceof Error) && !(scriptOut instanceof Error)) {
        expect(scriptOut.full_kelly as number).toBeCloseTo(libOut.fullKelly, 10);
        expect(scriptOut.fractional_kelly as number).toBeCloseTo(libOut.recommended, 10);
      }
    }
  });
});
