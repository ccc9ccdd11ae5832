import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalServer, startLocalServer } from '../testing';

/**
 * A local stand-in for home.treasury.gov's interest-rate pages for tests: it serves the recorded
 * Treasury files in fixtures/ at the paths the real site uses (the CSV download per year and the
 * XML feed per year), records every query, and lets a test replace the next answers with a fault.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** What the stand-in holds, by curve type, format and year. */
const FILES: Record<string, string> = {
  'daily_treasury_yield_curve csv 2023': 'par-yield-2023.csv',
  'daily_treasury_yield_curve csv 2022': 'par-yield-2022-10.csv',
  'daily_treasury_yield_curve xml 2022': 'par-yield-2022-01.xml',
  'daily_treasury_real_yield_curve csv 2024': 'real-yield-2024.csv',
};

export type TreasuryFault = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FakeTreasury extends LocalServer {
  /** Base URL to configure: `http://127.0.0.1:<port>/interest-rates`. */
  base: string;
  /** Every request: format, curve type, year and the raw query string. */
  queries: { format: 'csv' | 'xml'; type: string; year: string; raw: string }[];
  fault(f: TreasuryFault | null, times?: number): void;
}

export async function startFakeTreasury(): Promise<FakeTreasury> {
  const queries: FakeTreasury['queries'] = [];
  let fault: TreasuryFault | null = null;
  let left = Number.POSITIVE_INFINITY;
  const server = await startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const csv = /^\/interest-rates\/daily-treasury-rates\.csv\/(\d{4})\/all$/.exec(url.pathname);
    const isXml = url.pathname === '/interest-rates/pages/xml';
    const format = csv ? 'csv' : 'xml';
    const type = (csv ? url.searchParams.get('type') : url.searchParams.get('data')) ?? '';
    const year = url.searchParams.get('field_tdr_date_value') ?? '';
    queries.push({ format, type, year, raw: url.search });
    if (fault && left > 0) {
      left--;
      const f = fault;
      if (left === 0) fault = null;
      return f(req, res);
    }
    if ((!csv && !isXml) || (csv && csv[1] !== year)) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Page not found</body></html>');
      return;
    }
    const name = FILES[`${type} ${format} ${year}`];
    // A year the site has no file for: the CSV download is just the header, the feed has no entries.
    const body = name
      ? fixture(name)
      : format === 'csv'
        ? Buffer.from('Date,"1 Mo","3 Mo","10 Yr"\n')
        : Buffer.from('<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>');
    res.writeHead(200, { 'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/xml; charset=utf-8' }).end(body);
  });
  return {
    ...server,
    base: `${server.url}/interest-rates`,
    queries,
    fault(f, times = Number.POSITIVE_INFINITY) {
      fault = f;
      left = times;
    },
  };
}

/** The recorded 2023 CSV, for faults built from real bytes. */
export const PAR_2023_CSV = () => fixture('par-yield-2023.csv').toString('utf8');
export const PAR_2022_XML = () => fixture('par-yield-2022-01.xml').toString('utf8');
