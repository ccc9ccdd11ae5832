import { InvalidInputError } from '../../common/errors';
import type { ForgeFS } from '../../fs';
import { asOfInstant, parsePositionsCsv, parseSnapshot, readBook, renderSnapshot, STATE_PATH, type Book } from '../../guardrails';
import { limitsInForce } from '../../tools';
import type { PartialHandlerMap } from './types';

const CONSTRAINTS = '/portfolio/constraints.md';

/** The limits in force, read from the same place the write tool and approval read them. */
export function limitsOf(fs: ForgeFS) {
  return limitsInForce(fs.exists(CONSTRAINTS) ? fs.readFile(CONSTRAINTS) : null);
}

/** The book for the API: NaN (an unreadable header figure) travels as null. */
export function bookView(book: Book) {
  const n = (x: number) => (Number.isFinite(x) ? x : null);
  return { ...book, open: book.open.map((o) => ({ ...o, notional: n(o.notional), maxLossPct: n(o.maxLossPct), durationImpact: n(o.durationImpact) })) };
}

export const guardrailHandlers: PartialHandlerMap = {
  'guardrails/limits': async (_input, ctx) => {
    await ctx.memory.ready;
    const inForce = limitsOf(ctx.memory.fs);
    return { ...inForce, usage: readBook(ctx.memory.fs, inForce.limits).usage };
  },
  'portfolio/book': async (_input, ctx) => {
    await ctx.memory.ready;
    const fs = ctx.memory.fs;
    return bookView(readBook(fs, limitsOf(fs).limits));
  },
  'portfolio/import': async (input, ctx) => {
    await ctx.memory.ready;
    const fs = ctx.memory.fs;
    const asOf = input.asOf?.trim() || new Date().toISOString();
    if (!Number.isFinite(asOfInstant(asOf)))
      throw new InvalidInputError(`asOf "${asOf.slice(0, 40)}" is not a date; use YYYY-MM-DD or an ISO timestamp.`, [
        { path: ['asOf'], message: 'not a date' },
      ]);
    const current = fs.exists(STATE_PATH) ? fs.readFile(STATE_PATH) : null;
    let currentNav: number | null = null;
    try {
      currentNav = parseSnapshot(current).navMusd;
    } catch {
      // A broken snapshot is exactly what an import replaces; its NAV is simply unknown.
    }
    const snapshot = parsePositionsCsv(input.csv, {
      asOf,
      navMusd: input.navMusd ?? currentNav,
      expressionExists: (id) => fs.exists(`/memory/expressions/${id}.md`),
    });
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const keptAs = current ? `/portfolio/state_before_${stamp}.md` : null;
    await fs.transaction((tx) => {
      // The snapshot being replaced stays readable: years of books are the PM's record.
      if (keptAs && current) tx.writeFile(keptAs, current, { actor: 'pm', operation: 'snapshot-kept' });
      tx.writeFile(STATE_PATH, renderSnapshot(snapshot, 'positions import'), { actor: 'pm', operation: 'import' });
    });
    return { rows: snapshot.positions.length, asOf, previousKeptAs: keptAs, book: bookView(readBook(fs, limitsOf(fs).limits)) };
  },
};
