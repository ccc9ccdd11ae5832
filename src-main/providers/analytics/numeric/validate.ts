import { InvalidInputError } from '../../../common/errors';

/**
 * Input checks shared by the analytics functions. Every failure is an InvalidInputError whose
 * message names the field and says what a valid value looks like: the API returns it as
 * invalid_input, the analytics provider as a bad_params error the analyst reads.
 */

export function fail(message: string): never {
  throw new InvalidInputError(message);
}

export function finite(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${name} must be a finite number (got ${typeof v === 'number' ? String(v) : typeof v}).`);
  return v;
}

export function positive(name: string, v: unknown): number {
  const x = finite(name, v);
  if (!(x > 0)) fail(`${name} must be greater than 0 (got ${x}).`);
  return x;
}

export function nonNegative(name: string, v: unknown): number {
  const x = finite(name, v);
  if (x < 0) fail(`${name} must not be negative (got ${x}).`);
  return x;
}

/** A rate given as a decimal. Anything above 100% per year is almost surely a percent typed as a number. */
export function decimalRate(name: string, v: unknown): number {
  const x = finite(name, v);
  if (Math.abs(x) > 1) fail(`${name} is ${x}; give rates as decimals (0.05 = 5%).`);
  return x;
}

export function numberList(name: string, v: unknown, min: number, max = 100_000): number[] {
  if (!Array.isArray(v)) fail(`${name} must be a list of numbers.`);
  if (v.length < min) fail(`${name} needs at least ${min} values (got ${v.length}).`);
  if (v.length > max) fail(`${name} has ${v.length} values; at most ${max} are accepted.`);
  return v.map((x, i) => finite(`${name}[${i}]`, x));
}

/** A number for messages: 6 significant digits, no float noise. */
export function show(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(6)));
}

/** A sum of probabilities for messages: enough digits that 1.000000002 does not print as 1. */
export function showSum(x: number): string {
  return String(Number(x.toPrecision(12)));
}
