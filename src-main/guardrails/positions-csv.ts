import { readCsvEveryRow } from '../common/csv';
import { InvalidInputError } from '../common/errors';
import { factorKey, type Position, type PositionsSnapshot } from './snapshot';

/**
 * Positions exported from the PM's order/risk system, as CSV (columns in the README):
 *   instrument        required  name of the position
 *   factor            required  risk factor the concentration limit groups by (us_rates, fx, …)
 *   exposure_pct_nav  signed % of NAV (negative = short)            } one of the two
 *   notional_musd     signed notional in USD millions (needs NAV)   }
 *   side              optional  long/short/buy/sell: the sign when the exposure column is unsigned
 *   duration          optional  duration contribution, years (default 0)
 *   expression        optional  the Forge Expression the position carries (E-001)
 * Other columns are ignored, so a full risk-system export can be imported as it is.
 */
export interface PositionsCsvOptions {
  /** When the positions were taken (ISO date or timestamp). */
  asOf: string;
  /** NAV in USD millions; needed when the file gives notional_musd. */
  navMusd: number | null;
  /** Expression ids that exist: a row naming any other is an error. */
  expressionExists?: (id: string) => boolean;
}

export const MAX_CSV_BYTES = 2 * 1024 * 1024;
export const MAX_CSV_ROWS = 10_000;

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * Parses and validates the whole file before anything changes; every problem found is listed,
 * each naming its row (the file's line) and column.
 */
export function parsePositionsCsv(text: string, options: PositionsCsvOptions): PositionsSnapshot {
  if (typeof text !== 'string' || !text.trim()) throw new InvalidInputError('The positions file is empty.');
  if (Buffer.byteLength(text) > MAX_CSV_BYTES) throw new InvalidInputError(`The positions file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB.`);
  const clean = text.replace(/^\uFEFF/, '');
  const firstLine = clean.split(/\r?\n/, 1)[0] ?? '';
  const sep = !firstLine.includes(',') && firstLine.includes(';') ? ';' : firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const read = readCsvEveryRow(clean, sep);
  const unclosed = (line: number) => `Row ${line}: a quoted field is never closed (it opens on this row).`;
  // A header with an open quote leaves no columns to check the other rows against.
  if (read.unclosedQuotes[0] === 1 || !read.records.length) throw new InvalidInputError(unclosed(read.unclosedQuotes[0] ?? 1));
  const rows = read.records;
  const head = rows[0]!.cells.map(norm);
  const col = (name: string) => head.indexOf(name);
  const at = {
    instrument: col('instrument'),
    factor: col('factor'),
    pct: col('exposure_pct_nav'),
    musd: col('notional_musd'),
    side: col('side'),
    duration: col('duration'),
    expression: col('expression'),
  };
  const missing: string[] = [];
  if (at.instrument < 0) missing.push('instrument');
  if (at.factor < 0) missing.push('factor');
  if (at.pct < 0 && at.musd < 0) missing.push('exposure_pct_nav (or notional_musd)');
  if (missing.length)
    throw new InvalidInputError(`Row 1 (header): missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Found: ${head.join(', ') || 'none'}.`);
  if (at.pct < 0 && !(options.navMusd && options.navMusd > 0)) {
    throw new InvalidInputError('Row 1 (header): notional_musd needs the NAV to turn into % of NAV; give the NAV (USD millions) with the import.');
  }
  const body = rows.slice(1);
  if (!body.length && read.unclosedQuotes.length) throw new InvalidInputError(read.unclosedQuotes.map(unclosed).join('\n'));
  if (!body.length) throw new InvalidInputError('The positions file has a header but no positions. A flat book is one row with exposure 0.');
  if (body.length > MAX_CSV_ROWS) throw new InvalidInputError(`The positions file has ${body.length} rows; at most ${MAX_CSV_ROWS} are accepted.`);

  const problems: string[] = read.unclosedQuotes.map(unclosed);
  const positions: Position[] = [];
  for (const { cells, line } of body) {
    const get = (i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    const bad = (column: string, what: string) => problems.push(`Row ${line}, column ${column}: ${what}.`);
    const instrument = get(at.instrument);
    if (!instrument) bad('instrument', 'is empty');
    const factorText = get(at.factor);
    const factor = factorKey(factorText);
    if (!factor) bad('factor', factorText ? `"${factorText.slice(0, 30)}" has no letters or digits` : 'is empty');
    const amountText = at.pct >= 0 ? get(at.pct) : get(at.musd);
    const amountCol = at.pct >= 0 ? 'exposure_pct_nav' : 'notional_musd';
    let exposure = Number(amountText.replace(/,/g, '').replace(/%$/, ''));
    if (!amountText || !Number.isFinite(exposure)) bad(amountCol, `"${amountText.slice(0, 30)}" is not a number`);
    else if (at.pct < 0) exposure = (exposure / options.navMusd!) * 100;
    const side = get(at.side).toLowerCase();
    if (side) {
      if (['short', 'sell', 's', 'pay'].includes(side)) exposure = -Math.abs(exposure);
      else if (['long', 'buy', 'b', 'receive'].includes(side)) exposure = Math.abs(exposure);
      else bad('side', `"${side.slice(0, 20)}" is not long, short, buy or sell`);
    }
    const durText = get(at.duration);
    const duration = durText === '' ? 0 : Number(durText);
    if (!Number.isFinite(duration)) bad('duration', `"${durText.slice(0, 30)}" is not a number`);
    const expression = get(at.expression).toUpperCase();
    if (expression && !/^E-\d{3,}$/.test(expression)) bad('expression', `"${expression.slice(0, 20)}" is not an Expression id such as E-001`);
    else if (expression && options.expressionExists && !options.expressionExists(expression)) bad('expression', `there is no Expression ${expression}`);
    positions.push({ instrument: instrument.replace(/\|/g, '/'), factor, exposurePct: exposure, duration, expression: expression || null });
  }
  if (problems.length) {
    // In file order, so a quote problem sits among the rows around it.
    problems.sort((a, b) => Number(/Row (\d+)/.exec(a)?.[1]) - Number(/Row (\d+)/.exec(b)?.[1]));
    const shown = problems.slice(0, 20);
    throw new InvalidInputError(
      `The positions file was not imported (nothing changed): ${problems.length} problem${problems.length > 1 ? 's' : ''}.\n${shown.join('\n')}${problems.length > shown.length ? `\n… and ${problems.length - shown.length} more.` : ''}`,
      problems.slice(0, 100).map((message) => ({ path: ['csv', Number(/Row (\d+)/.exec(message)?.[1] ?? 0)], message })),
    );
  }
  return { asOf: options.asOf, navMusd: options.navMusd, positions };
}
