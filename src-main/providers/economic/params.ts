import { z } from 'zod';

/**
 * The economic provider's parameters, declared once: the registry validates them and the fetch
 * tool's hints and Settings' JSON schema come from the `.describe()` texts. Names follow the FRED
 * API (https://fred.stlouisfed.org/docs/api/fred/) so an analyst who knows FRED reads them at once.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .regex(DAY, 'a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a real calendar date');

/** FRED's `units` transforms: levels, changes, percent changes, annualised and log. */
export const UNITS = {
  lin: 'levels',
  chg: 'change',
  ch1: 'change from a year ago',
  pch: '% change',
  pc1: '% change from a year ago',
  pca: 'compounded annual rate of change',
  cch: 'continuously compounded rate of change',
  cca: 'continuously compounded annual rate of change',
  log: 'natural log',
} as const;

export const FREQUENCIES = ['d', 'w', 'bw', 'm', 'q', 'sa', 'a', 'wef', 'weth', 'wew', 'wetu', 'wem', 'wesu', 'wesa', 'bwew', 'bwem'] as const;

export const economicParams = z
  .object({
    series_id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'a FRED series id such as RSAFS')
      .optional()
      .describe('FRED series id for observations, e.g. RSAFS, UNRATE, DGS2'),
    search: z.string().min(2).max(200).optional().describe('find series by words instead, e.g. "retail sales"'),
    start: day.optional().describe('observation_start, YYYY-MM-DD'),
    end: day.optional().describe('observation_end, YYYY-MM-DD'),
    units: z
      .enum(Object.keys(UNITS) as [keyof typeof UNITS, ...(keyof typeof UNITS)[]])
      .optional()
      .describe('transform: lin levels (default), chg, ch1 yoy change, pch %, pc1 yoy %, pca annualised %, cch, cca, log'),
    frequency: z.enum(FREQUENCIES).optional().describe('aggregate to a lower frequency: d w bw m q sa a (wef… weekly ending a weekday)'),
    aggregation_method: z.enum(['avg', 'sum', 'eop']).optional().describe('with frequency: avg (default), sum, eop end of period'),
    realtime_start: day.optional().describe('vintage window start (ALFRED): data as it was known then'),
    realtime_end: day.optional().describe('vintage window end (ALFRED)'),
    vintage_dates: z.array(day).min(1).max(20).optional().describe('specific vintages (ALFRED), each YYYY-MM-DD; not with realtime_*'),
    limit: z.number().int().min(1).max(2000).optional().describe('most recent N observations (default 500) or search results (default 10)'),
  })
  .superRefine((p, ctx) => {
    if (!p.series_id === !p.search)
      ctx.addIssue({ code: 'custom', path: ['series_id'], message: 'give either series_id (observations) or search (find series), not both or neither' });
    if (p.start && p.end && p.start > p.end) ctx.addIssue({ code: 'custom', path: ['end'], message: `ends before start (${p.start})` });
    if (p.realtime_start && p.realtime_end && p.realtime_start > p.realtime_end) {
      ctx.addIssue({ code: 'custom', path: ['realtime_end'], message: `ends before realtime_start (${p.realtime_start})` });
    }
    if (p.vintage_dates && (p.realtime_start || p.realtime_end)) {
      ctx.addIssue({ code: 'custom', path: ['vintage_dates'], message: 'use vintage_dates or realtime_start/realtime_end, not both' });
    }
    if (p.aggregation_method && !p.frequency)
      ctx.addIssue({ code: 'custom', path: ['aggregation_method'], message: 'needs frequency (the lower frequency to aggregate to)' });
    if (p.search && (p.start || p.end || p.units || p.frequency || p.vintage_dates)) {
      ctx.addIssue({ code: 'custom', path: ['search'], message: 'a search takes only search, limit and realtime_*; fetch observations with series_id' });
    }
  });

export type EconomicParams = z.output<typeof economicParams>;
