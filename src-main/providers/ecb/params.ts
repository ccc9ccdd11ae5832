import { z } from 'zod';
import { periodBounds } from './parse';

/**
 * Series a macro PM reads from the ECB every day, by a short name; any other series is asked for
 * as `FLOW/KEY` (as the Data Portal shows it, e.g. `EXR/D.USD.EUR.SP00.A` or `EXR.D.USD.EUR.SP00.A`).
 */
const AAA = 'B.U2.EUR.4F.G_N_A.SV_C_YM';
export const ECB_SERIES: Record<string, { flow: string; key: string; title: string }> = {
  estr: { flow: 'EST', key: 'B.EU000A2X2A25.WT', title: '€STR, euro short-term rate (volume-weighted trimmed mean)' },
  dfr: { flow: 'FM', key: 'D.U2.EUR.4F.KR.DFR.LEV', title: 'ECB deposit facility rate' },
  hicp: { flow: 'ICP', key: 'M.U2.N.000000.4.ANR', title: 'Euro area HICP, annual rate of change' },
  hicp_core: { flow: 'ICP', key: 'M.U2.N.XEF000.4.ANR', title: 'Euro area HICP excl. energy, food, alcohol and tobacco, annual rate' },
  eurusd: { flow: 'EXR', key: 'D.USD.EUR.SP00.A', title: 'ECB reference rate, US dollars per euro' },
  eurgbp: { flow: 'EXR', key: 'D.GBP.EUR.SP00.A', title: 'ECB reference rate, pounds sterling per euro' },
  eurjpy: { flow: 'EXR', key: 'D.JPY.EUR.SP00.A', title: 'ECB reference rate, yen per euro' },
  eurchf: { flow: 'EXR', key: 'D.CHF.EUR.SP00.A', title: 'ECB reference rate, Swiss francs per euro' },
  aaa_3m: { flow: 'YC', key: `${AAA}.SR_3M`, title: 'Euro area AAA government yield curve, 3-month spot rate' },
  aaa_2y: { flow: 'YC', key: `${AAA}.SR_2Y`, title: 'Euro area AAA government yield curve, 2-year spot rate' },
  aaa_5y: { flow: 'YC', key: `${AAA}.SR_5Y`, title: 'Euro area AAA government yield curve, 5-year spot rate' },
  aaa_10y: { flow: 'YC', key: `${AAA}.SR_10Y`, title: 'Euro area AAA government yield curve, 10-year spot rate' },
  aaa_30y: { flow: 'YC', key: `${AAA}.SR_30Y`, title: 'Euro area AAA government yield curve, 30-year spot rate' },
  aaa_curve: {
    flow: 'YC',
    key: `${AAA}.SR_3M+SR_1Y+SR_2Y+SR_5Y+SR_10Y+SR_30Y`,
    title: 'Euro area AAA government yield curve, spot rates 3M–30Y',
  },
};

const FLOW = /^[A-Z][A-Z0-9_]{0,19}$/;
const KEY = /^[A-Z0-9_+]*(\.[A-Z0-9_+]*)*$/;

export interface EcbSelection {
  flow: string;
  key: string;
  /** The short name when one was used. */
  alias?: string;
  title?: string;
}

/** `eurusd`, `EXR/D.USD.EUR.SP00.A` or `EXR.D.USD.EUR.SP00.A` → flow and key; null when it is none of them. */
export function resolveSeries(text: string): EcbSelection | null {
  const s = text.trim();
  const named = ECB_SERIES[s.toLowerCase()];
  if (named) return { flow: named.flow, key: named.key, alias: s.toLowerCase(), title: named.title };
  const upper = s.toUpperCase();
  const cut = upper.includes('/') ? upper.indexOf('/') : upper.indexOf('.');
  if (cut <= 0) return null;
  const flow = upper.slice(0, cut);
  const key = upper.slice(cut + 1);
  return FLOW.test(flow) && key.length > 0 && key.length <= 300 && KEY.test(key) ? { flow, key } : null;
}

const period = z
  .string()
  .max(10)
  .refine((s) => periodBounds(s) !== null, 'a date YYYY-MM-DD, a month YYYY-MM, a quarter YYYY-Qn or a year YYYY');

export const ecbParams = z
  .object({
    series: z
      .string()
      .min(1)
      .max(320)
      .describe(`a name (${Object.keys(ECB_SERIES).join(', ')}) or any FLOW/KEY from the ECB Data Portal, e.g. EXR/D.USD.EUR.SP00.A`),
    start: period.optional().describe('first period: YYYY-MM-DD, YYYY-MM, YYYY-Qn or YYYY'),
    end: period.optional().describe('last period (default: latest, or the session as-of date)'),
    limit: z.number().int().min(1).max(5000).optional().describe('most recent N observations shown (default 250)'),
  })
  .superRefine((p, ctx) => {
    if (!resolveSeries(p.series)) {
      ctx.addIssue({
        code: 'custom',
        path: ['series'],
        message: `"${p.series.slice(0, 40)}" is neither a known name (${Object.keys(ECB_SERIES).join(', ')}) nor FLOW/KEY such as EXR/D.USD.EUR.SP00.A`,
      });
    }
    const a = p.start ? periodBounds(p.start) : null;
    const b = p.end ? periodBounds(p.end) : null;
    if (a && b && a.start > b.end) ctx.addIssue({ code: 'custom', path: ['end'], message: `ends before start (${p.start})` });
  });

export type EcbParams = z.output<typeof ecbParams>;
