import { z } from 'zod';

/** The tenors each curve publishes (the 1.5-month bill since February 2025, the 4-month since October 2022). */
export const NOMINAL_TENORS = ['1M', '1.5M', '2M', '3M', '4M', '6M', '1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '20Y', '30Y'] as const;
export const REAL_TENORS = ['5Y', '7Y', '10Y', '20Y', '30Y'] as const;

const day = z.iso.date();

/** `10y`, `10 Yr`, `3 mo` → `10Y`, `3M`: the PM types tenors the way the Treasury's page shows them. */
export function normaliseTenor(t: string): string {
  const s = t.replace(/\s+/g, '').toUpperCase();
  const m = /^(\d+(?:\.\d+)?)(M|MO|MOS|MONTH|MONTHS|Y|YR|YRS|YEAR|YEARS)$/.exec(s);
  return m ? `${Number(m[1])}${m[2]!.startsWith('Y') ? 'Y' : 'M'}` : s;
}

export const treasuryParams = z
  .object({
    curve: z.enum(['nominal', 'real']).optional().describe('nominal par yields (default) or real (TIPS) par yields'),
    start: day.optional().describe('first date, YYYY-MM-DD (default: 90 days before end)'),
    end: day.optional().describe('last date, YYYY-MM-DD (default: today, or the session as-of date)'),
    tenors: z.array(z.string().min(1).max(12)).min(1).max(14).optional().describe('tenors to show, e.g. ["2Y","10Y"] (default: all)'),
    limit: z.number().int().min(1).max(2600).optional().describe('most recent N days shown (default 60)'),
    format: z.enum(['csv', 'xml']).optional().describe("Treasury's CSV download (default) or its XML feed: the same numbers"),
  })
  .superRefine((p, ctx) => {
    if (p.start && p.end && p.start > p.end) ctx.addIssue({ code: 'custom', path: ['end'], message: `ends before start (${p.start})` });
    const valid: readonly string[] = p.curve === 'real' ? REAL_TENORS : NOMINAL_TENORS;
    const bad = (p.tenors ?? []).find((t) => !valid.includes(normaliseTenor(t)));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['tenors'],
        message: `"${bad.slice(0, 12)}" is not a ${p.curve ?? 'nominal'} curve tenor; use ${valid.join(', ')}`,
      });
    }
  });

export type TreasuryParams = z.output<typeof treasuryParams>;
