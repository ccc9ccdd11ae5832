import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../common/errors';
import { limitsFromConstraints, limitsInForce } from './expressions';
import { openTestWorkspace, type TestWorkspace } from './testing';
import { applyWrite } from './write-pipeline';

/**
 * The PM's limits in /portfolio/constraints.md. They used to be read with a regex: `2%`,
 * `2 # tighter` and `"2"` did not match it and the 5% default silently applied — a PM who
 * tightened single-trade risk to 2% would see 5% trades approved.
 */

const constraints = (...lines: string[]) => ['# constraints — Desk limits', 'source: pm', ...lines, '---', '## SUMMARY', 'Limits.', ''].join('\n');

/** The line the refusal names, or a failure if nothing was refused. */
function refusal(md: string): string {
  try {
    limitsFromConstraints(md);
  } catch (e) {
    expect(isAppError(e) && e.code).toBe('invalid_input');
    return (e as Error).message;
  }
  throw new Error('expected the limits to be refused');
}

describe('limits in constraints.md', () => {
  it('reads `2%`, `2 # tighter` and `"2"` as 2, never as the default', () => {
    for (const written of ['2%', '2 # tighter after the drawdown', '"2"', "'2'", '2.0', ' 2 ']) {
      const r = limitsInForce(constraints(`max_single_risk: ${written}`));
      expect([written, r.limits.maxSingleRisk, r.fromConstraints.maxSingleRisk]).toEqual([written, 2, true]);
    }
    const all = limitsInForce(constraints('max_single_risk: 2.5', 'max_gross: 150 # board limit', 'max_duration: "3"', 'max_factor_concentration: 25%'));
    expect(all.limits).toEqual({ maxSingleRisk: 2.5, maxGross: 150, maxDuration: 3, maxFactorConcentration: 25 });
  });

  it('a limit it cannot read is refused naming the line, not replaced by the default', () => {
    expect(refusal(constraints('max_gross: lots'))).toMatch(/^\/portfolio\/constraints\.md line 3 \("max_gross: lots"\): max_gross must be a number/);
    expect(refusal(constraints('max_single_risk: 1', 'max_single_risk: -2'))).toMatch(/line 4 .*must be above 0/);
    expect(refusal(constraints('max_gross: 0'))).toMatch(/line 3 .*must be above 0/);
    expect(refusal(constraints('max_gross:'))).toMatch(/line 3 .*must be a number/);
    expect(refusal(constraints('max_duration: 3%'))).toMatch(/line 3 .*number of years/);
    expect(refusal(constraints('max_factor_concentration: 130'))).toMatch(/line 3 .*at most 100/);
    expect(refusal(constraints('max_gross: [150'))).toMatch(/line 3 .*not a readable `key: value` line/);
    expect(refusal(constraints('max_gross: 150', 'max_gross_exposure: 180'))).toMatch(/line 4 .*line 3 already sets/);
    // A misspelt limit would otherwise leave the default in force without a word.
    expect(refusal(constraints('max_gros: 150'))).toMatch(/line 3 .*max_gros is not a limit Forge knows/);
    expect(refusal(constraints('max_gross 150'))).toMatch(/line 3 .*write it as `max_gross: <number>`/);
  });

  it('limits not written take the defaults, and the body (below ---) is prose, not limits', () => {
    const r = limitsInForce(`${constraints('max_gross: 150')}\nmax_single_risk: banana\n`);
    expect(r.limits).toEqual({ maxSingleRisk: 5, maxGross: 150, maxDuration: 5, maxFactorConcentration: 30 });
    expect(r.fromConstraints).toEqual({ maxSingleRisk: false, maxGross: true, maxDuration: false, maxFactorConcentration: false });
    expect(limitsInForce(null).fromConstraints.maxGross).toBe(false);
  });
});

describe('writing constraints.md', () => {
  let t: TestWorkspace;
  afterEach(() => t?.close());

  it('a constraints.md with an unreadable limit is not written; a readable one is', async () => {
    t = await openTestWorkspace();
    const before = t.ws.fs.readFile('/portfolio/constraints.md');
    await expect(
      applyWrite(t.ws.fs, '/portfolio/constraints.md', constraints('max_gross: two hundred'), { actor: 'pm' }, { limits: limitsFromConstraints(before) }),
    ).rejects.toThrow(/line 3 .*max_gross must be a number/);
    expect(t.ws.fs.readFile('/portfolio/constraints.md')).toBe(before);
    const ok = await applyWrite(
      t.ws.fs,
      '/portfolio/constraints.md',
      constraints('max_gross: 150 # tighter'),
      { actor: 'pm' },
      { limits: limitsFromConstraints(before) },
    );
    expect(ok.ok).toBe(true);
    expect(limitsFromConstraints(t.ws.fs.readFile('/portfolio/constraints.md')).maxGross).toBe(150);
  });
});
