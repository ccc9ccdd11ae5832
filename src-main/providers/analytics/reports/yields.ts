import { type CouponPosition, couponPosition, type DayCount } from '../curves/daycount';
import { parYieldsFromZeros, type ZeroCompounding } from '../curves/par-yield';
import { type SvenssonParams, svenssonCurve } from '../curves/svensson';
import { type BondTerms, priceFromYield, yieldFromPrice } from '../curves/yield';
import { num, pct, table } from '../format';
import { fail } from '../numeric/validate';
import type { Report } from './report';

/** Reports for yields: a bond's yield to maturity (or price from yield), par yields off a zero curve, and a Svensson curve. */

const FREQ_WORD: Record<number, string> = { 1: 'annual', 2: 'semiannual', 4: 'quarterly', 12: 'monthly' };

export interface BondYieldInput {
  coupon: number;
  frequency?: 1 | 2 | 4 | 12;
  /** Years from settlement... */
  maturity?: number;
  /** ...or the maturity date, with the settlement date and day count setting the coupon schedule. */
  maturity_date?: string;
  settlement?: string;
  day_count?: DayCount;
  clean_price?: number;
  dirty_price?: number;
  yield?: number;
}

export function bondYieldReport(input: BondYieldInput): Report {
  const given = [input.clean_price, input.dirty_price, input.yield].filter((x) => x !== undefined).length;
  if (given !== 1) fail('give exactly one of clean_price, dirty_price (to solve the yield) or yield (to price the bond).');
  if ((input.maturity === undefined) === (input.maturity_date === undefined))
    fail('give either maturity (years) or maturity_date (with settlement), not both.');
  const f = input.frequency ?? 2;
  const dayCount = input.day_count ?? 'act/act';
  let position: CouponPosition | null = null;
  if (input.maturity_date !== undefined) {
    if (!input.settlement) fail('maturity_date needs a settlement date.');
    position = couponPosition(input.settlement, input.maturity_date, f, dayCount);
  }
  const terms: BondTerms = { maturity: position ? position.years : input.maturity!, coupon: input.coupon, frequency: f };
  const r =
    input.yield !== undefined
      ? priceFromYield(terms, input.yield)
      : input.clean_price !== undefined
        ? yieldFromPrice(terms, input.clean_price, 'clean')
        : yieldFromPrice(terms, input.dirty_price!, 'dirty');
  const head = position
    ? `${pct(input.coupon, 3)} ${FREQ_WORD[f]} bond maturing ${input.maturity_date}, settling ${input.settlement}`
    : `${num(input.maturity!)}y ${pct(input.coupon, 3)} ${FREQ_WORD[f]} bond`;
  const convention = position
    ? `street convention, compounded ${f}× a year; ${dayCount.toUpperCase()} accrual, ${position.remaining} coupons left, next ${position.nextCoupon}`
    : `street convention, compounded ${f}× a year at the coupon frequency; times in years as given`;
  const summary =
    input.yield !== undefined
      ? `${head} at ${pct(r.yield, 4)}: clean ${num(r.cleanPrice, 5)}, dirty ${num(r.dirtyPrice, 5)} (accrued ${num(r.accrued, 5)}); modified duration ${num(r.modifiedDuration)}, DV01 ${num(r.dv01, 5)} per 100. Yield ${convention}.`
      : `${head} at ${input.clean_price !== undefined ? `clean ${num(input.clean_price, 5)}` : `dirty ${num(input.dirty_price!, 5)}`}: yield to maturity ${pct(r.yield, 4)} (continuous ${pct(r.yieldContinuous, 4)}, annual ${pct(r.yieldAnnual, 4)}); modified duration ${num(r.modifiedDuration)}, DV01 ${num(r.dv01, 5)} per 100. Yield ${convention}.`;
  const body = [
    '## BOND',
    table(
      ['measure', 'value', 'note'],
      [
        ['yield to maturity', pct(r.yield, 6), `${FREQ_WORD[f]} compounding (the quoted yield)`],
        ['yield, continuous', pct(r.yieldContinuous, 6), 'f·ln(1 + y/f)'],
        ['yield, annual', pct(r.yieldAnnual, 6), '(1 + y/f)^f − 1'],
        ['clean price', num(r.cleanPrice, 6), 'per 100 face, quoted'],
        ['accrued interest', num(r.accrued, 6), 'linear in time within the coupon period'],
        ['dirty price', num(r.dirtyPrice, 6), 'clean + accrued'],
        ...(position
          ? [
              ['previous / next coupon', `${position.previousCoupon} / ${position.nextCoupon}`, `${position.remaining} coupons left`],
              ['period to next coupon', num(position.fractionToNext, 6), `fraction of a coupon period, ${dayCount.toUpperCase()}`],
            ]
          : [['next coupon in (years)', num(r.nextCoupon, 6), 'coupons every 1/f years back from maturity']]),
        ['Macaulay duration (years)', num(r.macaulayDuration, 6), ''],
        ['modified duration', num(r.modifiedDuration, 6), ''],
        ['DV01 (per 100 face, 1bp)', num(r.dv01, 6), ''],
        ['convexity', num(r.convexity, 6), ''],
      ],
    ),
    '',
    `Convention: dirty = Σ CF_i/(1 + y/f)^{f·t_i}, t_i in years from settlement; accrued = coupon/f × (1 − fraction of the period to the next coupon) (${convention}).`,
  ].join('\n');
  return { label: `bond yield ${head}`, summary, body };
}

export function parYieldsReport(input: {
  points: { maturity: number; rate: number }[];
  compounding?: ZeroCompounding;
  tenors?: number[];
  frequency?: 1 | 2 | 4 | 12;
}): Report {
  const f = input.frequency ?? 2;
  const compounding = input.compounding ?? 'continuous';
  const rows = parYieldsFromZeros(input.points, input.tenors, f, compounding);
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const summary =
    `Par yields (${FREQ_WORD[f]} coupons, clean price 100) from ${input.points.length} zero rates: ${num(first.tenor)}y ${pct(first.parYield)} → ${num(last.tenor)}y ${pct(last.parYield)}` +
    `${rows.length > 2 ? `; ${rows.length} tenors in the table` : ''}. Zeros given ${compounding}, interpolated linearly as continuous rates, flat outside.`;
  const body = [
    '## PAR YIELDS',
    table(
      ['tenor (y)', 'zero (continuous)', 'discount factor', `par yield (${FREQ_WORD[f]})`],
      rows.map((r) => [num(r.tenor, 4), pct(r.zero, 4), num(r.discountFactor, 6), pct(r.parYield, 4)]),
    ),
    '',
    'Par yield c = f·(1 − P(T)) / (Σ P(t_i) − accrued fraction): the coupon at which the bond prices at 100 clean off this curve.',
  ].join('\n');
  return { label: `par yields ${rows.length} tenors`, summary, body };
}

export function svenssonReport(
  input: SvenssonParams & { maturities?: number[]; forward_starts?: number[]; forward_tenor?: number; frequency?: 1 | 2 | 4 | 12 },
): Report {
  const c = svenssonCurve(input);
  const f = input.frequency ?? 2;
  const maturities = input.maturities?.length ? input.maturities : [1, 2, 3, 5, 7, 10, 20, 30];
  const starts = input.forward_starts ?? [1, 4, 9];
  const length = input.forward_tenor ?? 1;
  const rows = maturities.map((n) => ({ n, zero: c.zero(n), forward: c.forward(n), par: c.parYield(n, f) }));
  const fwd = starts.map((a) => ({ a, rate: c.forwardParYield(a, length, f) }));
  const pick = (n: number) => rows.find((r) => r.n === n);
  const show = (r: (typeof rows)[number] | undefined) => (r ? `${num(r.n)}y zero ${pct(r.zero)}, par ${pct(r.par)}` : '');
  const key = [show(pick(2) ?? rows[0]), show(pick(10) ?? rows[rows.length - 1])].filter(Boolean).join('; ');
  const summary =
    `Svensson curve (β0 ${pct(input.beta0)}, β1 ${pct(input.beta1)}, β2 ${pct(input.beta2)}, β3 ${pct(input.beta3)}, τ1 ${num(input.tau1)}, τ2 ${num(input.tau2)}): ${key}` +
    `${fwd.length ? `; ${num(length)}y forward par ${fwd.map((x) => `in ${num(x.a)}y ${pct(x.rate)}`).join(', ')}` : ''}. Zeros and forwards continuous; par ${FREQ_WORD[f]} coupon-equivalent.`;
  const body = [
    '## CURVE',
    table(
      ['maturity (y)', 'zero (continuous)', 'instantaneous forward', `par yield (${FREQ_WORD[f]})`],
      rows.map((r) => [num(r.n, 4), pct(r.zero, 4), pct(r.forward, 4), pct(r.par, 4)]),
    ),
    ...(fwd.length
      ? [
          '',
          `## FORWARD PAR YIELDS (${num(length)}-year bond)`,
          table(
            ['starts in (y)', 'par yield'],
            fwd.map((x) => [num(x.a, 4), pct(x.rate, 4)]),
          ),
        ]
      : []),
    '',
    "Same conventions as the Fed's GSW dataset: SVENY (zero) and SVENF (forward) continuously compounded, SVENPY and SVEN1F coupon-equivalent.",
  ].join('\n');
  return { label: `svensson curve ${maturities.length} maturities`, summary, body };
}
