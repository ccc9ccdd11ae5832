import { describe, expect, it } from 'vitest';
import { groupCalibration } from './calibration';
import { seededRng } from '../providers/analytics/numeric/random';
import { bandDirection, calibrationVerdict } from './calibration-words';

/**
 * The words a PM reads on the Calibration screen, in the analyst's prompt, from the reviewer and in
 * /memory/calibration/*.md all come from calibrationVerdict. If these fail, a coin-flipper is told
 * its confidence "matches", a calibrated record is told a noisy band is "overconfident", or a 0.2
 * forecast that came true 40% of the time is called "underconfident".
 */

const N = 10_000;
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const logit = (p: number) => Math.log(p / (1 - p));

function seeded(kind: 'calibrated' | 'no_skill' | 'overconfident', seed: number) {
  const rand = seededRng(seed).uniform;
  const ps = new Float64Array(N);
  const ys = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    const q = rand();
    ps[i] = kind === 'overconfident' ? sigmoid(2 * logit(q)) : q;
    ys[i] = rand() < (kind === 'no_skill' ? 0.5 : q) ? 1 : 0;
  }
  return { ps, ys };
}

describe('the words for three seeded sets of 10,000 forecasts', () => {
  it('perfectly calibrated: "matches", and no band is quoted as off', () => {
    const { ps, ys } = seeded('calibrated', 101);
    const g = groupCalibration(ps, ys);
    expect(g.bands).toHaveLength(10);
    expect(g.verdict.kind).toBe('matches');
    expect(g.verdict.text).toMatch(/^stated confidence matches realised hit rates within the noise \(slope 1\.0\d, 95% /);
    expect(g.verdict.text).not.toMatch(/overconfident|underconfident|too extreme|too timid/);
  });

  it('no skill: "no better than a coin", never "matches"', () => {
    const { ps, ys } = seeded('no_skill', 202);
    const g = groupCalibration(ps, ys);
    expect(g.verdict.kind).toBe('no_skill');
    expect(g.verdict.text).toMatch(/^no better than a coin/);
    expect(g.verdict.text).not.toMatch(/matches/);
  });

  it('twice overconfident: "overconfident" with a slope near 0.5 whose interval lies below 1', () => {
    const { ps, ys } = seeded('overconfident', 303);
    const g = groupCalibration(ps, ys);
    expect(g.verdict.kind).toBe('overconfident');
    expect(g.recalibration!.slopeInterval.hi).toBeLessThan(1);
    expect(g.verdict.text).toMatch(/^overconfident: stated confidence is too extreme \(slope 0\.\d\d/);
    // The band it quotes is one whose interval excludes 0; the 0.0–0.1 band is too extreme toward No.
    const low = g.bands.find((b) => b.band === '0.0–0.1')!;
    expect(low.biasInterval!.hi).toBeLessThan(0);
  });
});

describe('band words below and above 0.5', () => {
  it('names a departure below 0.5 toward No, and above 0.5 as over/underconfident', () => {
    expect(bandDirection({ stated: 0.2, bias: 0.2 - 0.4 })).toBe('too extreme toward No');
    expect(bandDirection({ stated: 0.2, bias: 0.2 - 0.05 })).toBe('too timid toward No');
    expect(bandDirection({ stated: 0.8, bias: 0.8 - 0.6 })).toBe('overconfident (too extreme toward Yes)');
    expect(bandDirection({ stated: 0.8, bias: 0.8 - 0.95 })).toBe('underconfident (too timid toward Yes)');
  });

  it('under the per-band minimum it says "not enough resolved forecasts yet" whatever the bias', () => {
    const bands = [{ band: '0.8–0.9', n: 4, stated: 0.85, realised: 0, bias: 0.85, biasInterval: { lo: 0.85, hi: 0.85 } }];
    const fit = { intercept: 0, interceptInterval: { lo: -1, hi: 1 }, slope: 0.2, slopeInterval: { lo: 0.1, hi: 0.3 }, iterations: 3 };
    expect(calibrationVerdict({ n: 4, bands, recalibration: fit }, 5)).toEqual({
      kind: 'not_enough',
      text: 'not enough resolved forecasts yet (4 resolved; a band is judged from 5)',
    });
  });

  it('a slope interval that holds 1 but one band whose interval excludes 0 names that band, in the right direction', () => {
    const bands = [
      { band: '0.2–0.3', n: 400, stated: 0.25, realised: 0.4, bias: -0.15, biasInterval: { lo: -0.2, hi: -0.1 } },
      { band: '0.7–0.8', n: 400, stated: 0.75, realised: 0.77, bias: -0.02, biasInterval: { lo: -0.06, hi: 0.02 } },
    ];
    const fit = { intercept: 0, interceptInterval: { lo: -1, hi: 1 }, slope: 0.95, slopeInterval: { lo: 0.8, hi: 1.1 }, iterations: 3 };
    const v = calibrationVerdict({ n: 800, bands, recalibration: fit }, 5);
    expect(v.kind).toBe('band_off');
    expect(v.text).toMatch(/^the 0\.2–0\.3 band is too extreme toward No by 15 pts/);
  });
});
