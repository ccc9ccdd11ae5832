import type { ProcedureInput } from '../../src-main/api';
import type { ForgeClient } from '../api/client';
import type { Point } from './chart';
import { parseNumber } from './schema-form';

/**
 * The analytics panel's forms in the PM's units (rates and vols in %, expiry as `1`, `6m`, `2w`)
 * and their translation into `analytics/option` and `analytics/curve` inputs (decimals, years).
 */

export type OptionInput = ProcedureInput<'analytics/option'>;
export type CurveInput = ProcedureInput<'analytics/curve'>;
type Bond = NonNullable<CurveInput['bonds']>[number];

/** A rate or vol typed in percent (`4.5`, `4.5%`) as a decimal (0.045). */
export function parsePercent(text: string): number | null {
  const n = parseNumber(text.trim().replace(/%$/, ''));
  return n === null ? null : n / 100;
}

/** Years from `1`, `0.25`, `1y`, `6m`, `2w` or `30d` (ACT/365 for days and weeks). */
export function parseYears(text: string): number | null {
  const m = /^\s*([0-9]*\.?[0-9]+)\s*([ymwd]?)\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  const years = unit === 'm' ? n / 12 : unit === 'w' ? (n * 7) / 365 : unit === 'd' ? n / 365 : n;
  return Number.isFinite(years) ? years : null;
}

export interface OptionForm {
  model: 'bsm' | 'black76';
  type: 'call' | 'put';
  /** 'price': from a volatility; 'iv': the volatility implied by a price. */
  solve: 'price' | 'iv';
  underlying: string;
  strike: string;
  expiry: string;
  rate: string;
  dividendYield: string;
  vol: string;
  price: string;
}

export const sampleOption: OptionForm = {
  model: 'bsm',
  type: 'call',
  solve: 'price',
  underlying: '100',
  strike: '100',
  expiry: '1',
  rate: '5',
  dividendYield: '0',
  vol: '20',
  price: '',
};

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

/** The form as an `analytics/option` input, or what to fix, field by field. */
export function optionRequest(f: OptionForm): Checked<OptionInput> {
  const errors: Record<string, string> = {};
  const positive = (key: keyof OptionForm, text: string, what: string) => {
    const n = parseNumber(text);
    if (n === null) errors[key] = `${what} must be a number`;
    else if (n <= 0) errors[key] = `${what} must be more than 0`;
    return n ?? 0;
  };
  const underlying = positive('underlying', f.underlying, f.model === 'black76' ? 'Forward' : 'Spot');
  const strike = positive('strike', f.strike, 'Strike');
  const expiryYears = parseYears(f.expiry);
  if (expiryYears === null) errors.expiry = 'Expiry must be years (1, 0.25) or a tenor (6m, 2w, 30d)';
  else if (expiryYears <= 0 || expiryYears > 100) errors.expiry = 'Expiry must be more than 0 and at most 100 years';
  const rate = parsePercent(f.rate);
  if (rate === null) errors.rate = 'Rate must be a number in %';
  else if (Math.abs(rate) > 1) errors.rate = 'Rate must be between −100% and 100%';
  let dividendYield: number | null = null;
  if (f.model === 'bsm' && f.dividendYield.trim() !== '') {
    dividendYield = parsePercent(f.dividendYield);
    if (dividendYield === null) errors.dividendYield = 'Dividend yield must be a number in %';
    else if (Math.abs(dividendYield) > 1) errors.dividendYield = 'Dividend yield must be between −100% and 100%';
  }
  let vol: number | null = null;
  let price: number | null = null;
  if (f.solve === 'price') {
    vol = parsePercent(f.vol);
    if (vol === null) errors.vol = 'Volatility must be a number in %';
    else if (vol <= 0 || vol > 10) errors.vol = 'Volatility must be more than 0% and at most 1000%';
  } else {
    price = positive('price', f.price, 'Option price');
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      model: f.model,
      type: f.type,
      underlying,
      strike,
      expiryYears: expiryYears!,
      rate: rate!,
      ...(dividendYield !== null ? { dividendYield } : {}),
      ...(vol !== null ? { vol } : {}),
      ...(price !== null ? { price } : {}),
    },
  };
}

/** Underlying levels for the price-vs-spot chart: `count` evenly spaced around the spot and strike. */
export function spotGrid(underlying: number, strike: number, count = 25): number[] {
  const lo = Math.min(underlying, strike) * 0.6;
  const hi = Math.max(underlying, strike) * 1.4;
  return Array.from({ length: count }, (_, i) => lo + ((hi - lo) * i) / (count - 1));
}

/**
 * The option chart's "value today" line: the option at every level of `spotGrid`, at the
 * volatility the first answer used, asked for in ONE `analytics/option` request (its `spots`)
 * rather than one per level. Query options for react-query, so the panel and its test share them.
 */
export function valueGridQuery(client: Pick<ForgeClient, 'call'>, input: OptionInput, vol: number) {
  const { price: _price, spots: _spots, ...market } = input;
  const base: OptionInput = { ...market, vol };
  const spots = spotGrid(input.underlying, input.strike);
  return {
    queryKey: ['analytics/option', 'grid', base] as const,
    queryFn: async (): Promise<Point[]> => {
      const answer = await client.call('analytics/option', { ...base, spots });
      return (answer.grid ?? []).map((g) => ({ x: g.underlying, y: g.price }));
    },
    staleTime: Infinity,
    retry: false,
  };
}

/** What one option pays at expiry at each underlying level: max(S − K, 0) for a call, max(K − S, 0) for a put. */
export function payoffAtExpiry(type: 'call' | 'put', strike: number, spots: number[]): Point[] {
  return spots.map((s) => ({ x: s, y: type === 'call' ? Math.max(s - strike, 0) : Math.max(strike - s, 0) }));
}

export interface BondRow {
  maturity: string;
  /** Annual coupon in %. */
  coupon: string;
  /** Dirty price per 100; empty: a par bond. */
  price: string;
  frequency: '1' | '2' | '4' | '12';
}

/** Six par bonds along a gently humped curve: enough for a Nelson–Siegel fit to mean something. */
export const sampleBonds: BondRow[] = [
  { maturity: '0.5', coupon: '4.80', price: '', frequency: '2' },
  { maturity: '1', coupon: '4.60', price: '', frequency: '2' },
  { maturity: '2', coupon: '4.30', price: '', frequency: '2' },
  { maturity: '5', coupon: '4.10', price: '', frequency: '2' },
  { maturity: '10', coupon: '4.25', price: '', frequency: '2' },
  { maturity: '30', coupon: '4.50', price: '', frequency: '2' },
];

/** The table as bonds to bootstrap; errors keyed `<row>.<column>`. Blank rows are skipped. */
export function bondsRequest(rows: BondRow[]): Checked<Bond[]> {
  const errors: Record<string, string> = {};
  const bonds: Bond[] = [];
  const seen = new Map<number, number>();
  rows.forEach((r, i) => {
    if (r.maturity.trim() === '' && r.coupon.trim() === '' && r.price.trim() === '') return;
    const maturity = parseYears(r.maturity);
    if (maturity === null || maturity <= 0 || maturity > 100) errors[`${i}.maturity`] = 'years, more than 0 and at most 100';
    else if (seen.has(maturity)) errors[`${i}.maturity`] = `same maturity as row ${seen.get(maturity)! + 1}`;
    else seen.set(maturity, i);
    const coupon = parsePercent(r.coupon);
    if (coupon === null || coupon < 0 || coupon > 1) errors[`${i}.coupon`] = 'a coupon in %, 0 to 100';
    let price: number | null = null;
    if (r.price.trim() !== '') {
      price = parseNumber(r.price);
      if (price === null || price <= 0) errors[`${i}.price`] = 'a price per 100 above 0, or empty for par';
    }
    if (maturity !== null && coupon !== null) {
      bonds.push({ maturity, coupon, ...(price !== null ? { price } : {}), frequency: Number(r.frequency) as Bond['frequency'] });
    }
  });
  if (!Object.keys(errors).length && bonds.length < 2) errors.table = 'enter at least two bonds';
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: bonds };
}

/** 4.7433% from 0.047433. */
export function pct(v: number, decimals = 3): string {
  return `${fixed(v * 100, decimals)}%`;
}

/** A figure with a sign only when negative, and a proper minus. */
export function fixed(v: number, decimals = 4): string {
  const s = v.toFixed(decimals);
  if (Number(s) === 0) return (0).toFixed(decimals);
  return s.startsWith('-') ? `−${s.slice(1)}` : s;
}
