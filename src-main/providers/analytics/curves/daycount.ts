import { fail } from '../numeric/validate';

/**
 * A bond's position in its coupon schedule from calendar dates, in the form the street yield
 * formula needs (SIFMA/Excel YIELD and PRICE): n coupons still to come and w, the fraction of a
 * coupon period until the next one. Coupon dates run back from maturity every 12/f months (a
 * maturity on the last day of a month keeps coupons on month ends). The day count sets w:
 *   30/360   (US, Excel basis 0): w = (E − A)/E, A = 30/360 days since the last coupon, E = 360/f;
 *   ACT/ACT  (ICMA, Treasuries):  w = actual days to next coupon / actual days in the period;
 *   ACT/365 and ACT/360:          w = actual days to next coupon / (365/f or 360/f).
 * The bond's time to maturity in coupon-period units is then (n − 1 + w), i.e. (n − 1 + w)/f years,
 * which is what `yield.ts` takes: accrued interest = coupon/f · (1 − w).
 */

export type DayCount = '30/360' | 'act/act' | 'act/365' | 'act/360';

export const DAY_COUNTS: readonly DayCount[] = ['30/360', 'act/act', 'act/365', 'act/360'];

export interface CouponPosition {
  previousCoupon: string;
  nextCoupon: string;
  /** Coupons still to be paid, the one at maturity included. */
  remaining: number;
  /** Fraction of a coupon period to the next coupon, in (0, 1]. */
  fractionToNext: number;
  /** (remaining − 1 + fractionToNext) / frequency: the maturity in years the yield formula uses. */
  years: number;
}

const DAY_MS = 86_400_000;

function parse(name: string, d: string): Date {
  const t = Date.parse(`${d}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== d)
    fail(`${name} "${d}" is not a calendar date (YYYY-MM-DD).`);
  return new Date(t);
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();

/** `months` before the maturity date, day clipped to the month's length (end of month stays end of month). */
function monthsBefore(maturity: Date, months: number): Date {
  const y = maturity.getUTCFullYear();
  const m = maturity.getUTCMonth() - months;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  const endOfMonth = maturity.getUTCDate() === lastDay(y, maturity.getUTCMonth());
  const day = endOfMonth ? lastDay(year, month) : Math.min(maturity.getUTCDate(), lastDay(year, month));
  return new Date(Date.UTC(year, month, day));
}

/** US (NASD) 30/360 day count, Excel's basis 0. */
export function days360(from: Date, to: Date): number {
  let d1 = from.getUTCDate();
  let d2 = to.getUTCDate();
  const febEnd = (d: Date) => d.getUTCMonth() === 1 && d.getUTCDate() === lastDay(d.getUTCFullYear(), 1);
  if (febEnd(from) && febEnd(to)) d2 = 30;
  if (febEnd(from)) d1 = 30;
  if (d2 === 31 && d1 >= 30) d2 = 30;
  if (d1 === 31) d1 = 30;
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 360 + (to.getUTCMonth() - from.getUTCMonth()) * 30 + (d2 - d1);
}

export function couponPosition(settlement: string, maturity: string, frequency: number, dayCount: DayCount): CouponPosition {
  const s = parse('settlement', settlement);
  const m = parse('maturity_date', maturity);
  if (!(m > s)) fail(`maturity_date ${maturity} must be after the settlement date ${settlement}.`);
  if (![1, 2, 4, 12].includes(frequency)) fail(`frequency must be 1, 2, 4 or 12 coupons a year (got ${frequency}).`);
  if (!DAY_COUNTS.includes(dayCount)) fail(`day_count must be one of ${DAY_COUNTS.join(', ')} (got ${String(dayCount)}).`);
  if ((m.getTime() - s.getTime()) / DAY_MS > 100 * 366) fail('the bond matures more than 100 years after settlement.');
  const step = 12 / frequency;
  // Walk back from maturity to the last coupon date on or before settlement.
  let k = 1;
  while (monthsBefore(m, k * step) > s) k++;
  const previous = monthsBefore(m, k * step);
  const next = monthsBefore(m, (k - 1) * step);
  const actual = (a: Date, b: Date) => Math.round((b.getTime() - a.getTime()) / DAY_MS);
  let w: number;
  // 30/360 as Excel counts it: DSC = E − A, with A the 30/360 days accrued since the last coupon.
  if (dayCount === '30/360') w = (360 / frequency - days360(previous, s)) / (360 / frequency);
  else if (dayCount === 'act/act') w = actual(s, next) / actual(previous, next);
  else w = actual(s, next) / ((dayCount === 'act/365' ? 365 : 360) / frequency);
  // Never more than one period (ACT/365 can count 184 actual days against 182.5), so accrued ≥ 0.
  if (w > 1) w = 1;
  return { previousCoupon: iso(previous), nextCoupon: iso(next), remaining: k, fractionToNext: w, years: (k - 1 + w) / frequency };
}
